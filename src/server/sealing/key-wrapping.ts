import 'server-only'
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/**
 * How a sealing key is kept in the database. With TESSERA_ENCRYPTION_KEY: `a256gcm.<nonce>.<sealed>`,
 * AES-256-GCM with the key's ID as associated data (a wrapped key copied onto another row does not
 * open). Without it: `plain.<key>`, and the console says that the key is stored unencrypted.
 */
export function wrapKey({
  key,
  keyId,
  encryptionKey,
}: {
  key: Buffer
  keyId: string
  encryptionKey: Buffer | undefined
}): string {
  if (!encryptionKey) return `plain.${key.toString('base64url')}`
  const nonce = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', encryptionKey, nonce).setAAD(Buffer.from(keyId))
  const sealed = Buffer.concat([cipher.update(key), cipher.final(), cipher.getAuthTag()])
  return `a256gcm.${nonce.toString('base64url')}.${sealed.toString('base64url')}`
}

/** The key, or undefined when it cannot be read (wrapped under another encryption key, or damaged). */
export function unwrapKey({
  stored,
  keyId,
  encryptionKey,
}: {
  stored: string
  keyId: string
  encryptionKey: Buffer | undefined
}): Buffer | undefined {
  const [format, first, second] = stored.split('.')
  if (format === 'plain' && first) return checked(Buffer.from(first, 'base64url'))
  if (format !== 'a256gcm' || !first || !second || !encryptionKey) return undefined
  try {
    const sealed = Buffer.from(second, 'base64url')
    const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(first, 'base64url'))
      .setAAD(Buffer.from(keyId))
      .setAuthTag(sealed.subarray(-16))
    return checked(Buffer.concat([decipher.update(sealed.subarray(0, -16)), decipher.final()]))
  } catch {
    return undefined
  }
}

/** Whether the stored form is encrypted at rest. */
export function isWrapped(stored: string): boolean {
  return stored.startsWith('a256gcm.')
}

function checked(key: Buffer): Buffer | undefined {
  return key.length === 32 ? key : undefined
}
