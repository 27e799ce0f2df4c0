import { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { jsonbText } from './jsonb-text'

let client: PGlite
beforeAll(async () => {
  client = await PGlite.create('memory://')
})
afterAll(async () => {
  await client.close()
})

/** What PostgreSQL prints for the value, sent as the server sends JSON (JSON.stringify). */
async function printed(value: unknown): Promise<string> {
  const result = await client.query<{ text: string }>('select $1::jsonb::text as text', [
    JSON.stringify(value),
  ])
  return result.rows[0]?.text ?? ''
}

it('prints what PostgreSQL prints for values with every awkward part', async () => {
  const values: unknown[] = [
    { b: 1, a: 2, aa: [], z: {}, é: 'long key in bytes', y: null, x: true, w: false },
    [
      1e21,
      1.5e21,
      1.9275814160560206e-50,
      -1.5e-7,
      123e-20,
      0.1 + 0.2,
      -0,
      2 ** 53,
      -42,
      1e-6,
      123456789.125,
    ],
    ['quote " backslash \\ slash /', 'tab\tnew\nline\rfeed\fback\b', '\u0001\u001f\u007f', 'ü—€ 😀 𝄞'],
    { nested: { deep: [1, 2.5, null, true, { k: 'v', kk: [[]] }] }, '': 'empty key', '10': 'numeric key' },
    'just a string',
    3.25,
  ]
  for (const value of values) expect(jsonbText(value)).toBe(await printed(value))
})

it('agrees with PostgreSQL on generated JSON', async () => {
  // Strings jsonb accepts: no NUL and no lone surrogate (both are refused at input).
  const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((value) => !value.includes('\u0000'))
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      text,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    ),
  })).value
  await fc.assert(
    fc.asyncProperty(json, async (value) => {
      expect(jsonbText(value)).toBe(await printed(value))
    }),
    { numRuns: 300 },
  )
})
