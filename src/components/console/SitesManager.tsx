'use client'

import { type FormEvent, useCallback, useState } from 'react'
import type {
  CreatedApiKey,
  CreatedWebhook,
  SiteList,
  SiteSummary,
  WebhookDeliveryList,
  WebhookFormat,
} from '@/contracts/console'
import { CodeBlock } from '../CodeBlock'
import { formatTime } from '../format'
import { LoadedView } from '../LoadedView'
import { EmptyNote } from '../Notes'
import { useLoaded } from '../useLoaded'
import { callConsole } from './api'
import styles from './console.module.css'
import { SealingKeys } from './SealingKeys'
import { usePolling } from './usePolling'

type Site = SiteSummary

/** Sites (public keys, allowed origins), secret API keys and webhooks. */
export function SitesManager({ origin }: { origin: string }) {
  const { loaded, reload } = usePolling<SiteList>('/api/console/sites', 60_000)
  const [error, setError] = useState<string | null>(null)

  async function createSite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    setError(null)
    try {
      await callConsole('/api/console/sites', {
        method: 'POST',
        body: {
          name: String(data.get('name') ?? ''),
          allowedOrigins: splitOrigins(String(data.get('origins') ?? '')),
        },
      })
      form.reset()
      await reload()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The site could not be created.')
    }
  }

  return (
    <section aria-labelledby="sites-heading" className={styles.section}>
      <h2 id="sites-heading">Sites and keys</h2>
      <LoadedView loaded={loaded} loading="Loading sites…">
        {(data) =>
          data.sites.map((site) => (
            <SiteCard
              key={site.id}
              site={site}
              origin={origin}
              encryptedAtRest={data.sealingKeysEncrypted}
              onChange={reload}
            />
          ))
        }
      </LoadedView>
      <form className={`card ${styles.stack}`} onSubmit={createSite} aria-labelledby="new-site-heading">
        <h3 id="new-site-heading">Add a site</h3>
        <label className={styles.field}>
          <span>Name</span>
          <input name="name" required maxLength={100} />
        </label>
        <label className={styles.field}>
          <span>Allowed origins (one per line)</span>
          <textarea name="origins" rows={2} placeholder="https://shop.example" />
        </label>
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
        <button type="submit" className="button">
          Add site
        </button>
      </form>
    </section>
  )
}

function splitOrigins(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean)
}

const WEBHOOK_FORMATS = {
  tessera: { label: 'Tessera', header: 'tessera-signature' },
  'fingerprint-v4': { label: 'Fingerprint v4', header: 'fpjs-event-signature' },
} as const

function SiteCard({
  site,
  origin,
  encryptedAtRest,
  onChange,
}: {
  site: Site
  origin: string
  encryptedAtRest: boolean
  onChange: () => Promise<void>
}) {
  const [newKey, setNewKey] = useState<string | null>(null)
  const [newWebhookSecret, setNewWebhookSecret] = useState<{ secret: string; format: WebhookFormat } | null>(
    null,
  )
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)

  async function run(action: () => Promise<unknown>) {
    setError(null)
    setSaved(false)
    try {
      await action()
      await onChange()
      return true
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'That did not work.')
      return false
    }
  }

  async function saveOrigins(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const origins = splitOrigins(String(new FormData(event.currentTarget).get('origins') ?? ''))
    const ok = await run(() =>
      callConsole(`/api/console/sites/${site.id}`, {
        method: 'PATCH',
        body: { name: site.name, allowedOrigins: origins },
      }),
    )
    setSaved(ok)
  }

  async function createKey(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const name = String(new FormData(form).get('name') ?? '')
    await run(async () => {
      const created = await callConsole<CreatedApiKey>('/api/console/keys', {
        method: 'POST',
        body: { siteId: site.id, name },
      })
      setNewKey(created.key)
      form.reset()
    })
  }

  async function createWebhook(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const url = String(data.get('url') ?? '')
    const format: WebhookFormat = data.get('format') === 'fingerprint-v4' ? 'fingerprint-v4' : 'tessera'
    await run(async () => {
      const created = await callConsole<CreatedWebhook>('/api/console/webhooks', {
        method: 'POST',
        body: { siteId: site.id, url, format },
      })
      setNewWebhookSecret({ secret: created.secret, format })
      form.reset()
    })
  }

  const snippet = `<script src="${origin}/agent.js"></script>
<script type="module">
  const agent = await Tessera.load({ siteKey: '${site.publicKey}', endpoint: '${origin}' })
  const { requestId } = await agent.get()
</script>`

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
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}

      <form onSubmit={saveOrigins} className={styles.stack}>
        <label className={styles.field}>
          <span>Allowed origins — pages on these origins may embed Tessera with this key</span>
          <textarea
            name="origins"
            rows={2}
            defaultValue={site.allowedOrigins.join('\n')}
            placeholder="https://shop.example"
          />
        </label>
        <div className={styles.row}>
          <button type="submit" className="button button-secondary">
            Save origins
          </button>
          {saved && (
            <span role="status" className={styles.success}>
              Saved.
            </span>
          )}
        </div>
      </form>

      <CodeBlock code={snippet} label="Embed snippet" />

      <h4>Secret API keys</h4>
      {newKey && (
        <div className={styles.secret} role="status">
          <p>
            <strong>Copy this key now.</strong> It is shown only once; Tessera keeps just a hash of it.
          </p>
          <CodeBlock code={newKey} label="Secret API key" />
          <button type="button" className="button button-secondary" onClick={() => setNewKey(null)}>
            I have copied it
          </button>
        </div>
      )}
      {site.apiKeys.length === 0 ? (
        <EmptyNote>No keys yet. Your back end needs one to read events.</EmptyNote>
      ) : (
        <ul className={styles.list}>
          {site.apiKeys.map((key) => (
            <li key={key.id}>
              <span>
                <strong>{key.name}</strong> <code>sk_{key.id}.…</code> · created {formatTime(key.createdAt)}
              </span>
              {key.revokedAt ? (
                <span className="badge">revoked</span>
              ) : (
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => run(() => callConsole(`/api/console/keys/${key.id}`, { method: 'DELETE' }))}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={createKey} className={styles.row}>
        <label className={styles.inlineField}>
          <span>Key name</span>
          <input name="name" required maxLength={100} placeholder="checkout back end" />
        </label>
        <button type="submit" className="button">
          Create key
        </button>
      </form>

      <SealingKeys site={site} encryptedAtRest={encryptedAtRest} run={run} />

      <h4>Webhooks</h4>
      {newWebhookSecret && (
        <div className={styles.secret} role="status">
          <p>
            <strong>Copy this signing secret now.</strong> It is shown only once; your server checks each
            delivery's <code>{WEBHOOK_FORMATS[newWebhookSecret.format].header}</code> with it
            {newWebhookSecret.format === 'fingerprint-v4' && (
              <>
                {' '}
                (<code>isValidWebhookSignature</code> of Fingerprint's SDKs)
              </>
            )}
            .
          </p>
          <CodeBlock code={newWebhookSecret.secret} label="Webhook signing secret" />
          <button type="button" className="button button-secondary" onClick={() => setNewWebhookSecret(null)}>
            I have copied it
          </button>
        </div>
      )}
      {site.webhooks.length === 0 ? (
        <EmptyNote>No webhooks. Each identification can be POSTed to your server, signed.</EmptyNote>
      ) : (
        <ul className={styles.list}>
          {site.webhooks.map((webhook) => (
            <WebhookItem
              key={webhook.id}
              webhook={webhook}
              onDelete={() =>
                run(() => callConsole(`/api/console/webhooks/${webhook.id}`, { method: 'DELETE' }))
              }
            />
          ))}
        </ul>
      )}
      <form onSubmit={createWebhook} className={styles.row}>
        <label className={styles.inlineField}>
          <span>URL</span>
          <input name="url" type="url" required placeholder="https://shop.example/hooks/tessera" />
        </label>
        <label className={styles.inlineField}>
          <span>Format</span>
          <select name="format" defaultValue="tessera">
            <option value="tessera">Tessera (tessera-signature)</option>
            <option value="fingerprint-v4">Fingerprint v4 event (fpjs-event-signature)</option>
          </select>
        </label>
        <button type="submit" className="button">
          Add webhook
        </button>
      </form>
    </article>
  )
}

function WebhookItem({ webhook, onDelete }: { webhook: Site['webhooks'][number]; onDelete: () => void }) {
  const [open, setOpen] = useState(false)
  return (
    <li className={styles.webhook}>
      <span>
        <code>{webhook.url}</code> <span className="badge">{WEBHOOK_FORMATS[webhook.format].label}</span> ·
        created {formatTime(webhook.createdAt)}
      </span>
      <span className={styles.row}>
        <button
          type="button"
          className="button button-secondary"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide deliveries' : 'Deliveries'}
        </button>
        <button type="button" className="button button-secondary" onClick={onDelete}>
          Delete
        </button>
      </span>
      {open && <DeliveryLog webhookId={webhook.id} />}
    </li>
  )
}

/** A webhook's recent deliveries, loaded when opened. */
function DeliveryLog({ webhookId }: { webhookId: string }) {
  const load = useCallback(
    async () => (await callConsole<WebhookDeliveryList>(`/api/console/webhooks/${webhookId}`)).deliveries,
    [webhookId],
  )
  const { loaded } = useLoaded(load)
  return (
    <LoadedView
      loaded={loaded}
      loading="Loading deliveries…"
      isEmpty={(deliveries) => deliveries.length === 0}
      empty="Nothing delivered yet."
    >
      {(deliveries) => (
        <table className={styles.table}>
          <caption className="visually-hidden">Recent deliveries</caption>
          <thead>
            <tr>
              <th scope="col">Queued</th>
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td>{formatTime(delivery.createdAt)}</td>
                <td>{delivery.deliveredAt ? 'delivered' : delivery.failedAt ? 'gave up' : 'retrying'}</td>
                <td>{delivery.attempts}</td>
                <td>{delivery.lastError ?? (delivery.lastStatus ? `HTTP ${delivery.lastStatus}` : '—')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </LoadedView>
  )
}
