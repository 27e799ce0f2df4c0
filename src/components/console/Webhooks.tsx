'use client'

import { Fragment, useCallback, useEffect, useId, useState } from 'react'
import type { SiteSummary, WebhookDelivery, WebhookEvent, WebhookFormat } from '@/contracts/console'
import { WEBHOOK_RESTORE_MINUTES } from '@/contracts/undo-windows'
import { FormField } from '../FormField'
import fieldStyles from '../FormField.module.css'
import { formatCount } from '../format'
import { LoadedView } from '../LoadedView'
import { EmptyNote, ErrorNote } from '../Notes'
import { ScrollFrame } from '../ScrollFrame'
import { Cell, Row, Table } from '../Table'
import tables from '../Table.module.css'
import { Time } from '../Time'
import { useLoaded } from '../useLoaded'
import { callConsole } from './api'
import styles from './console.module.css'
import { ShownOnce } from './ShownOnce'
import type { SitePartProps } from './site-part-props'
import { UndoableRemoval } from './UndoableRemoval'
import { useFormAction } from './useFormAction'

const WEBHOOK_EVENTS: Record<WebhookEvent, string> = {
  identification: 'Identifications',
  signup: "Sign-up decisions (Tessera's format)",
}

const WEBHOOK_FORMATS = {
  tessera: { label: 'Tessera', header: 'tessera-signature' },
  'fingerprint-v4': { label: 'Fingerprint v4', header: 'fpjs-event-signature' },
} as const

/** A site's webhooks: the list (each with its recent deliveries), the signing secret once, a new one. */
export function Webhooks({ site, run, onChange }: SitePartProps) {
  const eventsErrorId = useId()
  const [created, setCreated] = useState<{ secret: string; format: WebhookFormat } | null>(null)
  const { errors, submit } = useFormAction(['url', 'format', 'events'], 'The webhook could not be added.')

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
            <WebhookItem key={webhook.id} webhook={webhook} run={run} />
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
            const events = data.getAll('events').map(String) as WebhookEvent[]
            const answer = await callConsole('POST /api/console/webhooks', {
              body: { siteId: site.id, url: String(data.get('url') ?? ''), format, events },
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
        <fieldset
          className={styles.checks}
          aria-describedby={errors.fields.events ? eventsErrorId : undefined}
        >
          <legend>Send</legend>
          {(Object.keys(WEBHOOK_EVENTS) as WebhookEvent[]).map((value) => (
            <label key={value}>
              <input
                type="checkbox"
                name="events"
                value={value}
                defaultChecked={value === 'identification'}
              />{' '}
              {WEBHOOK_EVENTS[value]}
            </label>
          ))}
        </fieldset>
        {errors.fields.events && (
          <p id={eventsErrorId} className={fieldStyles.error}>
            {errors.fields.events}
          </p>
        )}
        {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
      </form>
    </>
  )
}

function WebhookItem({
  webhook,
  run,
}: {
  webhook: SiteSummary['webhooks'][number]
  run: SitePartProps['run']
}) {
  const [open, setOpen] = useState(false)
  // Each test delivery sent asks the open log to look again.
  const [tests, setTests] = useState(0)
  const [testError, setTestError] = useState<string | null>(null)

  async function sendTest() {
    setTestError(null)
    try {
      await callConsole('POST /api/console/webhooks/:webhookId/tests', {
        params: { webhookId: webhook.id },
        body: {},
      })
      setOpen(true)
      setTests((count) => count + 1)
    } catch (failure) {
      setTestError(failure instanceof Error ? failure.message : 'The test delivery was not queued.')
    }
  }

  return (
    <li className={styles.webhook}>
      <span>
        <code>{webhook.url}</code> <span className="badge">{WEBHOOK_FORMATS[webhook.format].label}</span> ·{' '}
        {webhook.events
          .map((event) => (event === 'signup' ? 'sign-up decisions' : 'identifications'))
          .join(' and ')}{' '}
        · created <Time iso={webhook.createdAt} />
      </span>
      <span className={styles.row}>
        {!webhook.deletedAt && (
          <>
            <button type="button" className="button button-secondary" onClick={() => void sendTest()}>
              Send a test delivery
            </button>
            <button
              type="button"
              className="button button-secondary"
              aria-expanded={open}
              onClick={() => setOpen(!open)}
            >
              {open ? 'Hide deliveries' : 'Deliveries'}
            </button>
          </>
        )}
        <UndoableRemoval
          subject={`webhook ${webhook.url}`}
          label="Delete"
          question="Delete this webhook? Nothing more is sent to it."
          confirmLabel="Yes, delete"
          removedAt={webhook.deletedAt}
          removedBadge="deleted"
          undoMinutes={WEBHOOK_RESTORE_MINUTES}
          onRemove={() =>
            run(() =>
              callConsole('DELETE /api/console/webhooks/:webhookId', { params: { webhookId: webhook.id } }),
            )
          }
          onUndo={() =>
            run(() =>
              callConsole('DELETE /api/console/webhooks/:webhookId/deletion', {
                params: { webhookId: webhook.id },
              }),
            )
          }
        />
      </span>
      {testError && <ErrorNote>{testError}</ErrorNote>}
      {open && !webhook.deletedAt && <DeliveryLog webhookId={webhook.id} tests={tests} />}
    </li>
  )
}

function stateOf(delivery: WebhookDelivery): string {
  if (delivery.deliveredAt) return 'delivered'
  if (delivery.failedAt) return 'gave up'
  return delivery.attempts === 0 ? 'queued' : 'retrying'
}

/** A webhook's recent deliveries, loaded when opened and looked at again every few seconds while open. */
function DeliveryLog({ webhookId, tests }: { webhookId: string; tests: number }) {
  const load = useCallback(
    async () =>
      (await callConsole('GET /api/console/webhooks/:webhookId', { params: { webhookId } })).deliveries,
    [webhookId],
  )
  const { loaded, reload } = useLoaded(load)
  const [shown, setShown] = useState<string | null>(null)
  const [retryError, setRetryError] = useState<string | null>(null)
  // A delivery goes out within a second of being due: look again shortly after each test or retry.
  const [nudges, setNudges] = useState(0)
  useEffect(() => {
    if (tests + nudges === 0) return
    const timers = [1500, 4000].map((delay) => setTimeout(() => void reload(), delay))
    return () => {
      for (const timer of timers) clearTimeout(timer)
    }
  }, [tests, nudges, reload])

  async function retry(deliveryId: string) {
    setRetryError(null)
    try {
      await callConsole('POST /api/console/webhooks/:webhookId/retries', {
        params: { webhookId },
        body: { deliveryId },
      })
      await reload()
      setNudges((count) => count + 1)
    } catch (failure) {
      setRetryError(failure instanceof Error ? failure.message : 'The delivery could not be retried.')
    }
  }

  return (
    <ScrollFrame label="Deliveries, scrolling sideways" className={styles.deliveries}>
      {retryError && <ErrorNote>{retryError}</ErrorNote>}
      <LoadedView
        loaded={loaded}
        loading="Loading deliveries…"
        isEmpty={(deliveries) => deliveries.length === 0}
        empty="Nothing delivered yet. Send a test delivery to try the receiver."
      >
        {(deliveries) => (
          <Table
            caption="Recent deliveries"
            captionHidden
            columns={[
              'Queued',
              'Event',
              'State',
              'Attempts',
              'Next attempt',
              'Last answer',
              { name: 'Actions', hidden: true },
            ]}
          >
            {deliveries.map((delivery) => (
              <Fragment key={delivery.id}>
                <Row>
                  <Cell label="Queued">
                    <Time iso={delivery.createdAt} />
                  </Cell>
                  <Cell label="Event">{delivery.eventType}</Cell>
                  <Cell label="State">{stateOf(delivery)}</Cell>
                  <Cell label="Attempts">{formatCount(delivery.attempts)}</Cell>
                  <Cell label="Next attempt">
                    {delivery.deliveredAt || delivery.failedAt ? '—' : <Time iso={delivery.nextAttemptAt} />}
                  </Cell>
                  <Cell label="Last answer" className={tables.long}>
                    {delivery.lastError ?? (delivery.lastStatus ? `HTTP ${delivery.lastStatus}` : '—')}
                  </Cell>
                  <Cell>
                    <span className={styles.row}>
                      <button
                        type="button"
                        className="button button-secondary"
                        aria-expanded={shown === delivery.id}
                        onClick={() => setShown(shown === delivery.id ? null : delivery.id)}
                      >
                        {shown === delivery.id ? 'Hide attempts' : 'Attempts'}
                      </button>
                      {!delivery.deliveredAt && (
                        <button
                          type="button"
                          className="button button-secondary"
                          onClick={() => void retry(delivery.id)}
                        >
                          Retry now
                        </button>
                      )}
                    </span>
                  </Cell>
                </Row>
                {shown === delivery.id && (
                  <Row>
                    <Cell colSpan={7}>
                      <AttemptLog
                        webhookId={webhookId}
                        deliveryId={delivery.id}
                        attempts={delivery.attempts}
                      />
                    </Cell>
                  </Row>
                )}
              </Fragment>
            ))}
          </Table>
        )}
      </LoadedView>
    </ScrollFrame>
  )
}

/** Each attempt of one delivery: what was sent and what came back. */
function AttemptLog({
  webhookId,
  deliveryId,
  attempts,
}: {
  webhookId: string
  deliveryId: string
  attempts: number
}) {
  // Asked again when the delivery's attempt count moves.
  const load = useCallback(
    async () =>
      attempts >= 0
        ? (
            await callConsole('GET /api/console/webhooks/:webhookId/deliveries/:deliveryId', {
              params: { webhookId, deliveryId },
            })
          ).attempts
        : [],
    [webhookId, deliveryId, attempts],
  )
  const { loaded } = useLoaded(load)
  return (
    <LoadedView
      loaded={loaded}
      loading="Loading attempts…"
      isEmpty={(list) => list.length === 0}
      empty="Not attempted yet: the first attempt goes out within a second of being due."
    >
      {(list) => (
        <ol className={styles.attempts}>
          {list.map((attempt) => (
            <li key={attempt.attemptedAt}>
              <p>
                <Time iso={attempt.attemptedAt} /> · {formatCount(attempt.durationMs)} ms ·{' '}
                <strong>{attempt.status === null ? 'no answer' : `HTTP ${attempt.status}`}</strong>
                {attempt.error && ` · ${attempt.error}`}
              </p>
              <details>
                <summary>Request</summary>
                <pre className={styles.exchange}>
                  {Object.entries(attempt.requestHeaders)
                    .map(([name, value]) => `${name}: ${value}`)
                    .join('\n')}
                  {'\n\n'}
                  {attempt.requestBody}
                </pre>
              </details>
              <details>
                <summary>Answer{attempt.responseBody ? '' : ' (empty)'}</summary>
                <pre className={styles.exchange}>{attempt.responseBody || '(no body)'}</pre>
              </details>
            </li>
          ))}
        </ol>
      )}
    </LoadedView>
  )
}
