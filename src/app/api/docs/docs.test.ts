import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { documentationLinks } from '@/components/SiteFooter'
import { GET } from './route'

const docsDirectory = path.resolve(__dirname, '../../../../docs')
const docsPages = readdirSync(docsDirectory)
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.slice(0, -'.md'.length))

/** The query is appended as written, so an encoded `%2F` reaches the handler as a URL would. */
const getDocs = (query = '') => GET(new Request(`http://127.0.0.1:3000/api/docs${query}`))

describe('GET /api/docs', () => {
  it('lists every docs/ page as plain text', async () => {
    const response = await getDocs()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const text = await response.text()
    for (const page of docsPages) expect(text).toContain(`/api/docs?page=${page} `)
    expect(text).toContain('Embedding Tessera')
  })

  it('answers a page with its text', async () => {
    const response = await getDocs('?page=embedding')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await response.text()).toBe(readFileSync(path.join(docsDirectory, 'embedding.md'), 'utf8'))
  })

  it.each([
    '?page=no-such-page',
    '?page=',
    '?page=embedding.md',
    '?page=README',
    '?page=../package.json',
    '?page=..%2FREADME',
    '?page=..%2F..%2Fpackage.json',
    '?page=%2Fetc%2Fpasswd',
    '?page=.%2Fembedding',
  ])('answers 404 with a JSON error for %s', async (query) => {
    const response = await getDocs(query)
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const body = await response.json()
    expect(body).toEqual({ error: { code: 'not_found', message: expect.any(String) } })
  })

  it('answers every page the footer links, and the footer links every page', async () => {
    for (const { page } of documentationLinks) {
      const response = await getDocs(`?page=${page}`)
      expect(response.status, page).toBe(200)
    }
    expect(documentationLinks.map(({ page }) => page).sort()).toEqual([...docsPages].sort())
  })
})
