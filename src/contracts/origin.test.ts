import { describe, expect, it } from 'vitest'
import { isOrigin, normaliseOrigin } from './origin'

describe('origins', () => {
  it('normalise what an operator types into what browsers send', () => {
    expect(normaliseOrigin('https://shop.example/')).toBe('https://shop.example')
    expect(normaliseOrigin('HTTPS://Shop.Example:443')).toBe('https://shop.example')
    expect(normaliseOrigin('http://localhost:3000/')).toBe('http://localhost:3000')
    expect(normaliseOrigin('https://[2001:db8::1]:8443/')).toBe('https://[2001:db8::1]:8443')
  })

  it('are nothing more than a scheme, a host and a port', () => {
    for (const value of [
      'https://shop.example/path',
      'https://shop.example/?q=1',
      'https://shop.example/#top',
      'https://user:secret@shop.example',
      'ftp://shop.example',
      'javascript:alert(1)',
      'shop.example',
      'https://shop example',
      '',
    ])
      expect(normaliseOrigin(value), value).toBeUndefined()
  })

  it('count as origins only in the form browsers send', () => {
    expect(isOrigin('https://shop.example')).toBe(true)
    expect(isOrigin('https://shop.example/')).toBe(false)
    expect(isOrigin('https://Shop.example')).toBe(false)
  })
})
