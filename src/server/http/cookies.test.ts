import { describe, expect, it } from 'vitest'
import { readCookie } from './cookies'

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
