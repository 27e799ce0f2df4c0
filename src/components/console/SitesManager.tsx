'use client'

import { useState } from 'react'
import { FormField } from '../FormField'
import { LoadedView } from '../LoadedView'
import { ErrorNote, SuccessNote } from '../Notes'
import { callConsole, SITES_CHANGED } from './api'
import styles from './console.module.css'
import type { PublicPaths } from './embed-snippet'
import { SiteCard } from './SiteCard'
import { splitEntries } from './split-entries'
import { useFormAction } from './useFormAction'
import { usePolling } from './usePolling'

/** Sites (public keys, allowed origins), secret API keys and webhooks. */
export function SitesManager({ origin, publicPaths }: { origin: string; publicPaths: PublicPaths }) {
  const { loaded, reload } = usePolling('GET /api/console/sites', {}, 60_000)
  const { errors, submit } = useFormAction(['name', 'allowedOrigins'], 'The site could not be created.')
  const [added, setAdded] = useState<string | null>(null)

  return (
    <section aria-labelledby="sites-heading" className={styles.section}>
      <h2 id="sites-heading">Sites and keys</h2>
      <LoadedView loaded={loaded} loading="Loading sites…">
        {(data) =>
          data.sites.map((site) => (
            <SiteCard
              key={site.id}
              site={site}
              sites={data.sites}
              origin={origin}
              publicPaths={publicPaths}
              encryptedAtRest={data.sealingKeysEncrypted}
              onChange={async () => void (await reload())}
            />
          ))
        }
      </LoadedView>
      <form
        className={`card ${styles.stack}`}
        aria-labelledby="new-site-heading"
        noValidate
        onSubmit={(event) => {
          setAdded(null)
          return submit(event, async (data, form) => {
            const name = String(data.get('name') ?? '')
            await callConsole('POST /api/console/sites', {
              body: { name, allowedOrigins: splitEntries(String(data.get('allowedOrigins') ?? '')) },
            })
            form.reset()
            await reload()
            // The site selector at the console's top lists the sites too.
            window.dispatchEvent(new Event(SITES_CHANGED))
            setAdded(name.trim())
          })
        }}
      >
        <h3 id="new-site-heading">Add a site</h3>
        <FormField label="Name" error={errors.fields.name}>
          {(control) => <input {...control} name="name" required maxLength={100} />}
        </FormField>
        <FormField label="Allowed origins" hint="One per line." error={errors.fields.allowedOrigins}>
          {(control) => (
            <textarea {...control} name="allowedOrigins" rows={3} placeholder="https://shop.example" />
          )}
        </FormField>
        {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
        {added !== null && (
          <SuccessNote>Site “{added}” added: its card above holds its public key.</SuccessNote>
        )}
        <button type="submit" className="button">
          Add site
        </button>
      </form>
    </section>
  )
}
