import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { errorStack } from '../../agent/sources/error-stack'
import { mathQuirks } from '../../agent/sources/math-quirks'
import { snapshotOfEvent } from '../identification/component-snapshots'
import {
  COMPONENTS_DICTIONARY,
  EVIDENCE_DICTIONARY,
  SIGNALS_DICTIONARY,
  USER_AGENT_DICTIONARY,
} from './packed-dictionaries'
import { packJson, unpackJson } from './packed-json'

const signals = {
  bot: { result: 'notDetected', reasons: [] },
  tampering: { result: false, reasons: [] },
  ipInfo: { result: { address: '198.51.100.7', countryCode: 'DE', asn: 64_500 }, reasons: [] },
  velocity: {
    result: { events: { '5m': 3, '1h': 4, '24h': 9 } },
    reasons: ['3 identifications in 5 minutes.'],
  },
}

it('reads back what it packed, with the dictionary it was packed with', () => {
  const packed = packJson(signals, SIGNALS_DICTIONARY)
  expect(packed[0]).toBe(SIGNALS_DICTIONARY.length)
  expect(unpackJson(packed, SIGNALS_DICTIONARY)).toEqual(signals)
  // As PGlite hands bytes over: a view into a larger buffer.
  const view = new Uint8Array(Buffer.concat([Buffer.from('xx'), packed])).subarray(2)
  expect(unpackJson(view, SIGNALS_DICTIONARY)).toEqual(signals)
  // A dictionary appended later still reads the rows packed with an older one.
  expect(unpackJson(packed, [...SIGNALS_DICTIONARY, '{"a newer":"dictionary"}'])).toEqual(signals)
})

it('packs a typical value well below deflate alone', () => {
  const text = Buffer.byteLength(JSON.stringify(signals))
  expect(packJson(signals, SIGNALS_DICTIONARY).length).toBeLessThan(text / 3)
  const evidence = { bits: 40.2, twinBits: 1.5, facets: [{ facet: 'browser', level: 'exact', bits: 5.3 }] }
  expect(unpackJson(packJson(evidence, EVIDENCE_DICTIONARY), EVIDENCE_DICTIONARY)).toEqual(evidence)
})

it('reads JSON text as itself (rows stored before packing), and refuses a dictionary it does not have', () => {
  expect(unpackJson(Buffer.from('{"tor":{"result":true}}'), SIGNALS_DICTIONARY)).toEqual({
    tor: { result: true },
  })
  expect(unpackJson(Buffer.from('[1,2]'), SIGNALS_DICTIONARY)).toEqual([1, 2])
  expect(unpackJson(Buffer.from('"Mozilla/5.0 \\"x\\""'), SIGNALS_DICTIONARY)).toBe('Mozilla/5.0 "x"')
  // A version is never a byte that opens JSON text.
  expect(() =>
    packJson(
      1,
      Array.from({ length: 34 }, () => '{}'),
    ),
  ).toThrow('1 to 33 dictionaries')
  const future = Buffer.concat([Buffer.of(SIGNALS_DICTIONARY.length + 1), Buffer.from('anything')])
  expect(() => unpackJson(future, SIGNALS_DICTIONARY)).toThrow(`dictionary ${SIGNALS_DICTIONARY.length + 1}`)
})

it('never edits a dictionary that stored values were packed with', () => {
  // A stored value names its dictionary's version: an edit would make every value packed with it
  // read as something else, or not at all. A better dictionary is appended as the next version.
  const digests = (dictionaries: readonly string[]) =>
    dictionaries.map((dictionary) => createHash('sha256').update(dictionary).digest('hex').slice(0, 16))
  expect({
    signals: digests(SIGNALS_DICTIONARY),
    evidence: digests(EVIDENCE_DICTIONARY),
    components: digests(COMPONENTS_DICTIONARY),
    userAgent: digests(USER_AGENT_DICTIONARY),
  }).toEqual(PACKED_WITH)
})

it('packs a Chromium snapshot smaller with the engine’s shared results, and still reads the older version', () => {
  const components = syntheticDevice(11)
  // This runtime's V8 answers as Chromium's, but for pow's last digit in older versions.
  components.mathQuirks = { value: mathQuirks(), duration: 0.4 }
  components.errorStack = { value: errorStack(), duration: 0.2 }
  const { stored } = snapshotOfEvent(components)
  const snapshot = unpackJson(stored, COMPONENTS_DICTIONARY)
  expect(stored[0]).toBe(2)
  const older = packJson(snapshot, COMPONENTS_DICTIONARY.slice(0, 1))
  expect(older[0]).toBe(1)
  expect(unpackJson(older, COMPONENTS_DICTIONARY)).toEqual(snapshot)
  expect(older.length - stored.length).toBeGreaterThan(120)
})

/** The first 16 hex digits of SHA-256 of each dictionary, oldest version first. */
const PACKED_WITH = {
  signals: ['fcc04478aaa8ec65', '970675a757c8d205'],
  evidence: ['22b9df0632f1c9d3'],
  components: ['86bcd6376beb11c5', '101e544bc971b0a3'],
  userAgent: ['156b913b0efdd211'],
}
