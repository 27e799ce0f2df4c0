import 'server-only'
import { createCipheriv, randomBytes } from 'node:crypto'
import { deflateRawSync } from 'node:zlib'
import type { FingerprintEvent } from '@/contracts/fingerprint-v4'

/** The four bytes that open Fingerprint's sealed format (what the SDKs check before anything else). */
export const SEALED_HEADER = Buffer.from([0x9e, 0x85, 0xdc, 0xed])

/**
 * Fingerprint's sealed result: header, a 12-byte nonce, then the raw-deflated JSON of the v4 event
 * encrypted with AES-256-GCM, its 16-byte tag last; base64, as the JS agent hands it over. A back
 * end opens it with `unsealEventsResponse` and the site's key, without calling any API.
 */
export function sealEvent(event: FingerprintEvent, key: Buffer): string {
  const nonce = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  const compressed = deflateRawSync(Buffer.from(JSON.stringify(event)))
  const ciphertext = Buffer.concat([cipher.update(compressed), cipher.final()])
  return Buffer.concat([SEALED_HEADER, nonce, ciphertext, cipher.getAuthTag()]).toString('base64')
}
