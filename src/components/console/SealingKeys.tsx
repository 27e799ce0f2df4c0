'use client'

import { useState } from 'react'
import type { CreatedSealingKey } from '@/contracts/console'
import { CodeBlock } from '../CodeBlock'
import { EmptyNote } from '../Notes'
import { Time } from '../Time'
import { callConsole } from './api'
import styles from './console.module.css'
import { ShownOnce } from './ShownOnce'
import type { SitePartProps } from './site-part-props'

/**
 * A site's sealed-result keys: none (sealing off), one (it seals), or two during a rotation (the
 * older seals; the newer waits until the older is removed). A key is shown once, when created.
 */
export function SealingKeys({
  site,
  encryptedAtRest,
  run,
}: Pick<SitePartProps, 'site' | 'run'> & { encryptedAtRest: boolean }) {
  const [created, setCreated] = useState<CreatedSealingKey | null>(null)
  const [confirming, setConfirming] = useState<string | null>(null)
  const keys = site.sealingKeys
  const [sealing, next] = keys

  async function createKey() {
    await run(async () => {
      setCreated(await callConsole('POST /api/console/sealing-keys', { body: { siteId: site.id } }))
    })
  }

  async function removeKey(id: string) {
    const removed = await run(() =>
      callConsole('DELETE /api/console/sealing-keys/:keyId', { params: { keyId: id } }),
    )
    if (removed) setConfirming(null)
  }

  return (
    // Named with its site: every site card holds one, and landmarks need names of their own.
    <section aria-label={`Sealed results of ${site.name}`} className={styles.stack}>
      <h4>Sealed results</h4>
      <p className="muted">
        With a key, each identification answer carries <code>sealed_result</code>: the event, encrypted in
        Fingerprint’s sealed format, which your back end opens with the key (<code>unsealEventsResponse</code>
        ) instead of calling the Server API.
      </p>
      {!encryptedAtRest && (
        <p className={styles.notice}>
          Keys are stored unencrypted in the database. Set <code>TESSERA_ENCRYPTION_KEY</code> to encrypt new
          ones.
        </p>
      )}
      {created && (
        <ShownOnce
          message={
            <>
              <strong>Copy this key now.</strong> It is shown only once.{' '}
              {created.sealing
                ? 'Results are sealed with it from now on.'
                : 'Give it to your back ends next to the current key; it seals once you remove the current one.'}
            </>
          }
          label={`Sealing key ${created.id} (base64)`}
          secret={created.key}
          onDone={() => setCreated(null)}
        >
          <CodeBlock
            label="Opening a sealed result in Node.js"
            code={`import { unsealEventsResponse } from '@fingerprint/node-sdk'

const event = await unsealEventsResponse(Buffer.from(sealedResult, 'base64'), [
  { key: Buffer.from(process.env.TESSERA_SEALING_KEY, 'base64'), algorithm: 'aes-256-gcm' },
])`}
          />
        </ShownOnce>
      )}
      {keys.length === 0 ? (
        <EmptyNote>Sealing is off: no key yet.</EmptyNote>
      ) : (
        <ul className={styles.list} aria-label="Sealing keys">
          {keys.map((key) => (
            <SealingKeyItem
              key={key.id}
              sealingKey={key}
              sealingId={sealing?.id}
              nextId={next?.id}
              confirming={confirming === key.id}
              onAsk={() => setConfirming(key.id)}
              onKeep={() => setConfirming(null)}
              onRemove={() => removeKey(key.id)}
            />
          ))}
        </ul>
      )}
      <div className={styles.row}>
        {keys.length === 0 && (
          <button type="button" className="button" onClick={createKey}>
            Create a sealing key
          </button>
        )}
        {keys.length === 1 && (
          <button type="button" className="button button-secondary" onClick={createKey}>
            Rotate: create the next key
          </button>
        )}
        {keys.length >= 2 && (
          <p className="muted">
            Rotation under way: remove <code>{sealing?.id}</code> once every back end has{' '}
            <code>{next?.id}</code>.
          </p>
        )}
      </div>
      {site.sealingKeyChanges.length > 0 && (
        <details>
          <summary>Key changes</summary>
          <ul className={styles.history}>
            {site.sealingKeyChanges.map((change) => (
              <li key={`${change.changedAt}-${change.after.keys.length}`}>
                <Time iso={change.changedAt} /> · {change.operator} ·{' '}
                {describeChange(change.before.keys, change.after.keys)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  )
}

/** One key: its role in the rotation, how it is stored, and "Remove" behind a question. */
function SealingKeyItem({
  sealingKey,
  sealingId,
  nextId,
  confirming,
  onAsk,
  onKeep,
  onRemove,
}: {
  sealingKey: SitePartProps['site']['sealingKeys'][number]
  sealingId: string | undefined
  nextId: string | undefined
  confirming: boolean
  onAsk: () => void
  onKeep: () => void
  onRemove: () => void
}) {
  const { id } = sealingKey
  const isSealing = id === sealingId
  const warning = isSealing
    ? nextId
      ? `Remove ${id}? ${nextId} seals from then on: remove it only once every back end has ${nextId}.`
      : `Remove ${id}? Sealing stops, and back ends that expect sealed results will refuse them.`
    : `Remove ${id}? The rotation is cancelled; ${sealingId ?? 'the current key'} keeps sealing.`
  return (
    <li>
      <span>
        <code>{id}</code> · created <Time iso={sealingKey.createdAt} />{' '}
        <span className="badge">{isSealing ? 'seals now' : 'next: seals once the key above is removed'}</span>{' '}
        <span className="badge">{sealingKey.encrypted ? 'encrypted at rest' : 'stored unencrypted'}</span>
      </span>
      {confirming ? (
        <fieldset className={styles.confirm}>
          <legend>{warning}</legend>
          <button type="button" className="button button-danger" onClick={onRemove}>
            Remove {id}
          </button>
          <button
            type="button"
            className="button button-secondary"
            // Keyboard focus lands on the safe choice when the question appears.
            ref={(button) => button?.focus()}
            onClick={onKeep}
          >
            Keep it
          </button>
        </fieldset>
      ) : (
        <button type="button" className="button button-secondary" onClick={onAsk}>
          Remove
        </button>
      )}
    </li>
  )
}

function describeChange(before: { id: string }[], after: { id: string }[]): string {
  const added = after.filter((key) => !before.some((old) => old.id === key.id)).map((key) => key.id)
  const removed = before.filter((key) => !after.some((now) => now.id === key.id)).map((key) => key.id)
  return (
    [...added.map((id) => `added ${id}`), ...removed.map((id) => `removed ${id}`)].join(', ') || 'no change'
  )
}
