import { createDecipheriv, randomBytes } from 'node:crypto'
import { inflateRawSync } from 'node:zlib'
import { DecryptionAlgorithm, unseal, unsealEventsResponse } from '@fingerprint/node-sdk'
import { describe, expect, it } from 'vitest'
import type { FingerprintEvent } from '@/contracts/fingerprint-v4'
import { isWrapped, unwrapKey, wrapKey } from './key-wrapping'
import { SEALED_HEADER, sealEvent } from './seal-event'

const event: FingerprintEvent = {
  event_id: 'mabc.123',
  timestamp: 1_772_366_400_000,
  identification: { visitor_id: 'Ibk1527CUFmcnjLwIs4A', confidence: { score: 0.9 }, visitor_found: false },
  tags: { note: 'ünïcode ✓' },
  bot: 'not_detected',
  suspect_score: 0,
}
const aes = (key: Buffer) => ({ key, algorithm: DecryptionAlgorithm.Aes256Gcm })

describe('sealEvent', () => {
  it("is opened by the official SDK's unsealEventsResponse with the key, and only with it", async () => {
    const key = randomBytes(32)
    const sealed = Buffer.from(sealEvent(event, key), 'base64')
    expect(await unsealEventsResponse(sealed, [aes(key)])).toEqual(event)
    // Among several keys, as during a rotation, in any order.
    expect(await unsealEventsResponse(sealed, [aes(randomBytes(32)), aes(key)])).toEqual(event)
    await expect(unsealEventsResponse(sealed, [aes(randomBytes(32))])).rejects.toThrow(/Unable to decrypt/)
  })

  it("has Fingerprint's layout: header, 12-byte nonce, raw-deflated JSON, 16-byte tag", async () => {
    const key = randomBytes(32)
    const sealed = Buffer.from(sealEvent(event, key), 'base64')
    expect(sealed.subarray(0, 4)).toEqual(SEALED_HEADER)
    expect(SEALED_HEADER.toString('hex')).toBe('9e85dced')
    // A fresh nonce each time: sealing the same event twice never gives the same bytes.
    expect(sealEvent(event, key)).not.toBe(sealEvent(event, key))
    expect(JSON.parse(await unseal(sealed, [aes(key)]))).toEqual(event)
    // By hand: what sits between the nonce and the tag decrypts to raw deflate of the JSON.
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(4, 16)).setAuthTag(
      sealed.subarray(-16),
    )
    const compressed = Buffer.concat([decipher.update(sealed.subarray(16, -16)), decipher.final()])
    expect(inflateRawSync(compressed).toString()).toBe(JSON.stringify(event))
  })

  it('is refused when any byte was changed', async () => {
    const key = randomBytes(32)
    const sealed = Buffer.from(sealEvent(event, key), 'base64')
    for (const index of [5, 20, sealed.length - 1]) {
      const tampered = Buffer.from(sealed)
      tampered[index] = (tampered[index] ?? 0) ^ 1
      await expect(unsealEventsResponse(tampered, [aes(key)])).rejects.toThrow()
    }
    const badHeader = Buffer.from(sealed)
    badHeader[0] = 0
    await expect(unsealEventsResponse(badHeader, [aes(key)])).rejects.toThrow(/header/)
  })
})

describe('sealing keys at rest', () => {
  it('are encrypted under TESSERA_ENCRYPTION_KEY, bound to their ID', () => {
    const key = randomBytes(32)
    const encryptionKey = randomBytes(32)
    const stored = wrapKey({ key, keyId: 'sek_a', encryptionKey })
    expect(isWrapped(stored)).toBe(true)
    for (const encoding of ['base64', 'base64url', 'hex'] as const)
      expect(stored).not.toContain(key.toString(encoding))
    expect(unwrapKey({ stored, keyId: 'sek_a', encryptionKey })).toEqual(key)
    // Another encryption key, another row's ID, a damaged value: unreadable, never a wrong key.
    expect(unwrapKey({ stored, keyId: 'sek_a', encryptionKey: randomBytes(32) })).toBeUndefined()
    expect(unwrapKey({ stored, keyId: 'sek_b', encryptionKey })).toBeUndefined()
    expect(unwrapKey({ stored, keyId: 'sek_a', encryptionKey: undefined })).toBeUndefined()
    expect(unwrapKey({ stored: `${stored.slice(0, -2)}AA`, keyId: 'sek_a', encryptionKey })).toBeUndefined()
  })

  it('are kept plain without one, and still read once one is set', () => {
    const key = randomBytes(32)
    const stored = wrapKey({ key, keyId: 'sek_a', encryptionKey: undefined })
    expect(isWrapped(stored)).toBe(false)
    expect(unwrapKey({ stored, keyId: 'sek_a', encryptionKey: undefined })).toEqual(key)
    expect(unwrapKey({ stored, keyId: 'sek_a', encryptionKey: randomBytes(32) })).toEqual(key)
    expect(unwrapKey({ stored: 'plain.c2hvcnQ', keyId: 'sek_a', encryptionKey: undefined })).toBeUndefined()
  })
})
