'use client'

import { useState } from 'react'
import type { SiteSummary } from '@/contracts/console'
import { KEY_RESTORE_MINUTES } from '@/contracts/undo-windows'
import { CodeBlock } from '../CodeBlock'
import { FormField } from '../FormField'
import fieldStyles from '../FormField.module.css'
import { EmptyNote, ErrorNote } from '../Notes'
import { Time } from '../Time'
import { callConsole } from './api'
import styles from './console.module.css'
import { EntryListForm } from './EntryListForm'
import { embedSnippets, type PublicPaths } from './embed-snippet'
import { SealingKeys } from './SealingKeys'
import { ShownOnce } from './ShownOnce'
import { SiteLists } from './SiteLists'
import type { SitePartProps } from './site-part-props'
import { UndoableRemoval } from './UndoableRemoval'
import { useFormAction } from './useFormAction'
import { Webhooks } from './Webhooks'

/** One site: its allowed origins, embed snippet, secret API keys, sealing keys and webhooks. */
export function SiteCard({
  site,
  sites,
  origin,
  publicPaths,
  encryptedAtRest,
  onChange,
}: {
  site: SiteSummary
  /** Every site, to offer sharing visitor identity with. */
  sites: SiteSummary[]
  origin: string
  publicPaths: PublicPaths
  encryptedAtRest: boolean
  onChange: () => Promise<void>
}) {
  const [error, setError] = useState<string | null>(null)

  async function run(action: () => Promise<unknown>) {
    setError(null)
    try {
      await action()
      await onChange()
      return true
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'That did not work.')
      return false
    }
  }

  const snippets = embedSnippets(site.publicKey, origin, publicPaths)

  return (
    <article className={`card ${styles.site}`} aria-labelledby={`site-${site.id}`}>
      <header className={styles.panelHeader}>
        <h3 id={`site-${site.id}`}>
          {site.name} {site.isDefault && <span className="badge">default</span>}
        </h3>
        <p className={styles.keyLine}>
          Public site key <code>{site.publicKey}</code>
        </p>
      </header>
      {error && <ErrorNote>{error}</ErrorNote>}
      <OriginsForm site={site} onChange={onChange} />
      <SiteLists site={site} onChange={onChange} />
      <IdentitySharing site={site} sites={sites} run={run} />
      <CodeBlock code={snippets.direct} label="Embed snippet" />
      {snippets.firstParty && (
        <CodeBlock
          code={snippets.firstParty}
          label="Embed snippet, served from your own domain (your proxy passes these paths to Tessera)"
        />
      )}
      <ApiKeys site={site} run={run} onChange={onChange} />
      <SealingKeys site={site} encryptedAtRest={encryptedAtRest} run={run} />
      <Webhooks site={site} run={run} onChange={onChange} />
    </article>
  )
}

function OriginsForm({ site, onChange }: { site: SiteSummary; onChange: () => Promise<void> }) {
  return (
    <EntryListForm
      name="allowedOrigins"
      label="Allowed origins"
      hint="Pages on these origins may use this key (through /frame, or through your own server); one per line."
      entries={site.allowedOrigins}
      minRows={3}
      placeholder="https://shop.example"
      saveLabel="Save origins"
      notSaved="The origins were not saved."
      save={async (allowedOrigins) => {
        await callConsole('PATCH /api/console/sites/:siteId', {
          params: { siteId: site.id },
          body: { name: site.name, allowedOrigins },
        })
        await onChange()
      }}
    />
  )
}

/**
 * Which sites share visitor identity with this one: by default none (a site's answers reflect
 * only its own traffic); grouping puts it in another site's workspace.
 */
function IdentitySharing({
  site,
  sites,
  run,
}: {
  site: SiteSummary
  sites: SiteSummary[]
  run: SitePartProps['run']
}) {
  const others = sites.filter((other) => other.id !== site.id)
  const sharing = others.filter((other) => other.workspace === site.workspace)
  return (
    <FormField
      label="Visitor identity"
      layout="inline"
      hint={
        <>
          {sharing.length > 0
            ? `Visitor IDs, history and velocity are shared with ${sharing.map((other) => other.name).join(', ')}.`
            : 'Visitor IDs, history and velocity reflect this site’s own traffic only.'}{' '}
          A site that joins another meets that group’s devices from then on.
        </>
      }
    >
      {(control) => (
        <select
          {...control}
          value={sharing[0]?.id ?? ''}
          onChange={(event) =>
            run(() =>
              callConsole('PUT /api/console/sites/:siteId/workspace', {
                params: { siteId: site.id },
                body: { shareWith: event.target.value || null },
              }),
            )
          }
        >
          <option value="">This site only</option>
          {others.map((other) => (
            <option key={other.id} value={other.id}>
              Shared with {other.name}
              {other.workspace === site.workspace ? '' : ' (and its group)'}
            </option>
          ))}
        </select>
      )}
    </FormField>
  )
}

/** What each part of a site card is given: the site, a runner for its buttons, and a reload. */
function ApiKeys({ site, run, onChange }: SitePartProps) {
  const [newKey, setNewKey] = useState<string | null>(null)
  const { errors, submit } = useFormAction(['name'], 'The key could not be created.')

  return (
    <>
      <h4>Secret API keys</h4>
      {newKey && (
        <ShownOnce
          message={
            <>
              <strong>Copy this key now.</strong> It is shown only once; Tessera keeps just a hash of it.
            </>
          }
          label="Secret API key"
          secret={newKey}
          onDone={() => setNewKey(null)}
        />
      )}
      {site.apiKeys.length === 0 ? (
        <EmptyNote>No keys yet. Your back end needs one to read events.</EmptyNote>
      ) : (
        <ul className={styles.list}>
          {site.apiKeys.map((key) => (
            <li key={key.id}>
              <span>
                <strong>{key.name}</strong> <code>sk_{key.id}.…</code> · created <Time iso={key.createdAt} />{' '}
                ·{' '}
                {key.lastUsedAt ? (
                  <>
                    last used <Time iso={key.lastUsedAt} />
                  </>
                ) : (
                  'never used'
                )}
              </span>
              <UndoableRemoval
                subject={`key ${key.name}`}
                label="Revoke"
                question="Revoke this key? Back ends using it get 401 at once."
                confirmLabel="Yes, revoke"
                removedAt={key.revokedAt}
                removedBadge="revoked"
                undoMinutes={KEY_RESTORE_MINUTES}
                onRemove={() =>
                  run(() => callConsole('DELETE /api/console/keys/:keyId', { params: { keyId: key.id } }))
                }
                onUndo={() =>
                  run(() =>
                    callConsole('DELETE /api/console/keys/:keyId/revocation', { params: { keyId: key.id } }),
                  )
                }
              />
            </li>
          ))}
        </ul>
      )}
      <form
        className={styles.stack}
        noValidate
        onSubmit={(event) =>
          submit(event, async (data, form) => {
            const created = await callConsole('POST /api/console/keys', {
              body: { siteId: site.id, name: String(data.get('name') ?? '') },
            })
            setNewKey(created.key)
            form.reset()
            await onChange()
          })
        }
      >
        <div className={fieldStyles.row}>
          <FormField label="Key name" layout="inline" error={errors.fields.name}>
            {(control) => (
              <input {...control} name="name" required maxLength={100} placeholder="checkout back end" />
            )}
          </FormField>
          <button type="submit" className="button">
            Create key
          </button>
        </div>
        {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
      </form>
    </>
  )
}
