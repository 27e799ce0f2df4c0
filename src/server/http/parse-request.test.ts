import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { HttpError } from './errors'
import { parseParams } from './parse-query'
import { parseRequest } from './parse-request'

const Site = z.object({ name: z.string().min(1, 'Give the site a name.'), origins: z.array(z.url()) })
const post = (body: string) =>
  new Request('http://tessera.test/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })

describe('parseRequest', () => {
  it('answers a refused input in the one shape: each field’s first message, and every issue', async () => {
    const failure = await parseRequest(post('{"name":"","origins":["a","b"]}'), Site).catch((error) => error)
    expect(failure).toBeInstanceOf(HttpError)
    expect(failure.code).toBe('invalid_request')
    expect(failure.message).toBe('name: Give the site a name.')
    expect(failure.details.fields).toEqual({ name: 'Give the site a name.', origins: expect.any(String) })
    expect(failure.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
      'name',
      'origins.0',
      'origins.1',
    ])
  })

  it('returns what the schema made of a valid body', async () => {
    expect(await parseRequest(post('{"name":"Shop","origins":[]}'), Site)).toEqual({
      name: 'Shop',
      origins: [],
    })
  })
})

describe('parseParams', () => {
  it('answers a refused parameter in the same shape as a refused body', () => {
    const Query = z.object({ q: z.string().max(3, 'A look-up is at most 3 characters.'), from: z.iso.date() })
    let failure: unknown
    try {
      parseParams({ q: 'too long', from: '2026-02-30' }, Query)
    } catch (error) {
      failure = error
    }
    if (!(failure instanceof HttpError)) throw new Error('a refused parameter must be an HttpError')
    const details = failure.details as { fields: Record<string, string>; issues: { path: string }[] }
    expect(failure.message).toBe('q: A look-up is at most 3 characters.')
    expect(details.fields).toEqual({
      q: 'A look-up is at most 3 characters.',
      from: expect.any(String),
    })
    expect(details.issues.map((issue) => issue.path)).toEqual(['q', 'from'])
  })
})
