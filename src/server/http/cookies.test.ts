import { describe, expect, it } from 'vitest'
import { buildCookie, clearCookie, readCookie } from './cookies'

const withCookie = (cookie: string) => new Request('http://tessera.test/', { headers: { cookie } })

describe('readCookie', () => {
  it('finds a cookie by its whole name among others', () => {
    const request = withCookie('tessera_vid_x=1; tessera_vid=v2.a.b.c;other=3')
    expect(readCookie(request, 'tessera_vid')).toBe('v2.a.b.c')
    expect(readCookie(request, 'other')).toBe('3')
    expect(readCookie(request, 'tessera')).toBeUndefined()
  })

  it('treats a missing header and an empty value alike', () => {
    expect(readCookie(new Request('http://tessera.test/'), 'tessera_vid')).toBeUndefined()
    expect(readCookie(withCookie('tessera_vid='), 'tessera_vid')).toBeUndefined()
  })
})

describe('buildCookie', () => {
  const plain = new Request('http://tessera.test/')
  const https = new Request('https://tessera.test/')

  it('makes a console cookie HttpOnly and SameSite=Strict, Secure over HTTPS', () => {
    const expires = new Date('2026-11-24T12:00:00Z')
    expect(buildCookie(plain, 's', 'abc', { expires, reach: 'strict' })).toBe(
      's=abc; Path=/; HttpOnly; SameSite=Strict; Expires=Tue, 24 Nov 2026 12:00:00 GMT',
    )
    expect(buildCookie(https, 's', 'abc', { expires, reach: 'strict' })).toMatch(/; Secure$/)
  })

  it('makes a sign-in flow cookie Lax (it must follow the provider’s redirect back), never partitioned', () => {
    expect(buildCookie(plain, 'f', '1', { maxAge: 600, reach: 'navigation' })).toBe(
      'f=1; Path=/; Max-Age=600; HttpOnly; SameSite=Lax',
    )
    expect(buildCookie(https, 'f', '1', { maxAge: 600, reach: 'navigation' })).toBe(
      'f=1; Path=/; Max-Age=600; HttpOnly; SameSite=Lax; Secure',
    )
  })

  it('makes an embeddable cookie work in third-party frames over HTTPS, and Lax over HTTP', () => {
    expect(buildCookie(plain, 'v', '1', { maxAge: 60, reach: 'embeddable' })).toBe(
      'v=1; Path=/; Max-Age=60; HttpOnly; SameSite=Lax',
    )
    expect(buildCookie(https, 'v', '1', { maxAge: 60, reach: 'embeddable' })).toBe(
      'v=1; Path=/; Max-Age=60; HttpOnly; SameSite=None; Secure; Partitioned',
    )
  })

  it('clears a cookie with the same reach it was set with', () => {
    expect(clearCookie(https, 'v', 'embeddable')).toBe(
      'v=; Path=/; Max-Age=0; HttpOnly; SameSite=None; Secure; Partitioned',
    )
  })
})
