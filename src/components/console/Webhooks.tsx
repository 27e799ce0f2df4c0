'use client'

import { useCallback, useState } from 'react'
import type { SiteSummary, WebhookFormat } from '@/contracts/console'
import { FormField } from '../FormField'
import fieldStyles from '../FormField.module.css'
import { formatCount } from '../format'
import { LoadedView } from '../LoadedView'
import { EmptyNote, ErrorNote } from '../Notes'
import tables from '../Table.module.css'
import { Time } from '../Time'
import { useLoaded } from '../useLoaded'
import { callConsole } from './api'
import styles from './console.module.css'
import { ShownOnce } from './ShownOnce'
import type { SitePartProps } from './site-part-props'
import { useFormAction } from './useFormAction'

const WEBHOOK_FORMATS = {
  tessera: { label: 'Tessera', header: 'tessera-signature' },
  'fingerprint-v4': { label: 'Fingerprint v4', header: 'fpjs-event-signature' },
} as const

/** A site's webhooks: the list (each with its recent deliveries), the signing secret once, a new one. */
export function Webhooks({ site, run, onChange }: SitePartProps) {
  const [created, setCreated] = useState<{ secret: string; format: WebhookFormat } | null>(null)
  const { errors, submit } = useFormAction(['url', 'format'], 'The webhook could not be added.')

  return (
    <>
      <h4>Webhooks</h4>
      {created && (
        <ShownOnce
          message={
            <>
              <strong>Copy this signing secret now.</strong> It is shown only once; your server checks each
              delivery's <code>{WEBHOOK_FORMATS[created.format].header}</code> with it
              {created.format === 'fingerprint-v4' && (
                <>
                  {' '}
                  (<code>isValidWebhookSignature</code> of Fingerprint's SDKs)
                </>
              )}
              .
            </>
          }
          label="Webhook signing secret"
          secret={created.secret}
          onDone={() => setCreated(null)}
        />
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
                run(() =>
                  callConsole('DELETE /api/console/webhooks/:webhookId', {
                    params: { webhookId: webhook.id },
                  }),
                )
              }
            />
          ))}
        </ul>
      )}
      <form
        className={styles.stack}
        noValidate
        onSubmit={(event) =>
          submit(event, async (data, form) => {
            const format: WebhookFormat =
              data.get('format') === 'fingerprint-v4' ? 'fingerprint-v4' : 'tessera'
            const answer = await callConsole('POST /api/console/webhooks', {
              body: { siteId: site.id, url: String(data.get('url') ?? ''), format },
            })
            setCreated({ secret: answer.secret, format })
            form.reset()
            await onChange()
          })
        }
      >
        <div className={fieldStyles.row}>
          <FormField label="URL" layout="inline" className={styles.grow} error={errors.fields.url}>
            {(control) => (
              <input
                {...control}
                name="url"
                type="url"
                required
                placeholder="https://shop.example/hooks/tessera"
              />
            )}
          </FormField>
          <FormField label="Format" layout="inline" error={errors.fields.format}>
            {(control) => (
              <select {...control} name="format" defaultValue="tessera">
                <option value="tessera">Tessera (tessera-signature)</option>
                <option value="fingerprint-v4">Fingerprint v4 event (fpjs-event-signature)</option>
              </select>
            )}
          </FormField>
          <button type="submit" className="button">
            Add webhook
          </button>
        </div>
        {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
      </form>
    </>
  )
}

function WebhookItem({
  webhook,
  onDelete,
}: {
  webhook: SiteSummary['webhooks'][number]
  onDelete: () => void
}) {
  const [open, setOpen] = useState(false)
  return (
    <li className={styles.webhook}>
      <span>
        <code>{webhook.url}</code> <span className="badge">{WEBHOOK_FORMATS[webhook.format].label}</span> ·
        created <Time iso={webhook.createdAt} />
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
    async () =>
      (await callConsole('GET /api/console/webhooks/:webhookId', { params: { webhookId } })).deliveries,
    [webhookId],
  )
  const { loaded } = useLoaded(load)
  return (
    <div className={`${tables.frame} ${styles.deliveries}`}>
      <LoadedView
        loaded={loaded}
        loading="Loading deliveries…"
        isEmpty={(deliveries) => deliveries.length === 0}
        empty="Nothing delivered yet."
      >
        {(deliveries) => (
          <table className={tables.table}>
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
                  <td>
                    <Time iso={delivery.createdAt} />
                  </td>
                  <td>{delivery.deliveredAt ? 'delivered' : delivery.failedAt ? 'gave up' : 'retrying'}</td>
                  <td>{formatCount(delivery.attempts)}</td>
                  <td className={tables.long}>
                    {delivery.lastError ?? (delivery.lastStatus ? `HTTP ${delivery.lastStatus}` : '—')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadedView>
    </div>
  )
}
