import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { customType } from 'drizzle-orm/pg-core'

// JSON that events repeat from row to row (their signals and match evidence), stored deflated
// against a preset dictionary of what a typical value says: most of a value's bytes are its keys,
// enums and empty reasons, which the dictionary already holds (issue 28). A packed value's first byte
// names its dictionary; a dictionary is never edited (a better one is appended, and the older ones
// still read what they wrote). JSON text (`{`, `[` or `"` first: rows stored before their column was
// packed, migrations 0039 to 0041) reads as itself.

/** The dictionaries of one column, oldest first: a value is packed with the last, as version `length`. */
export type Dictionaries = readonly string[]

const dictionaryBytes = new Map<string, Buffer>()
function bytesOf(dictionary: string): Buffer {
  const known = dictionaryBytes.get(dictionary)
  if (known) return known
  const bytes = Buffer.from(dictionary)
  dictionaryBytes.set(dictionary, bytes)
  return bytes
}

const OPEN_OBJECT = 0x7b
const OPEN_ARRAY = 0x5b
const OPEN_STRING = 0x22

/** `value` as its column stores it: the dictionary's version, then the JSON deflated against it. */
export function packJson(value: unknown, dictionaries: Dictionaries): Buffer {
  const version = dictionaries.length
  const dictionary = dictionaries[version - 1]
  if (dictionary === undefined || version >= OPEN_STRING)
    throw new Error('A packed column needs 1 to 33 dictionaries.')
  const packed = deflateRawSync(JSON.stringify(value), { dictionary: bytesOf(dictionary) })
  return Buffer.concat([Buffer.of(version), packed])
}

/** The JSON value a packed column holds (either driver's bytes), whichever dictionary packed it. */
export function unpackJson(stored: Uint8Array, dictionaries: Dictionaries): unknown {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength)
  const first = bytes[0]
  if (first === OPEN_OBJECT || first === OPEN_ARRAY || first === OPEN_STRING)
    return JSON.parse(bytes.toString('utf8'))
  const dictionary = first === undefined ? undefined : dictionaries[first - 1]
  if (dictionary === undefined)
    throw new Error(`A packed value names dictionary ${first}, which this server does not have.`)
  return JSON.parse(inflateRawSync(bytes.subarray(1), { dictionary: bytesOf(dictionary) }).toString('utf8'))
}

/**
 * A `bytea` column holding packed JSON of type `T`: the typed builder reads and writes values, and
 * selectRows (../client.ts) reads the column as the builder does.
 */
export function packedJson<T>(name: string, dictionaries: Dictionaries) {
  return customType<{ data: T; driverData: Uint8Array }>({
    dataType: () => 'bytea',
    toDriver: (value) => packJson(value, dictionaries),
    fromDriver: (stored) => unpackJson(stored, dictionaries) as T,
  })(name)
}
