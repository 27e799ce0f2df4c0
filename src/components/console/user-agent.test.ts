import { describe, expect, it } from 'vitest'
import { formatUserAgent } from './user-agent'

describe('formatUserAgent', () => {
  it('names the browser with its major version and the system', () => {
    expect(
      formatUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.8078.114 Safari/537.36',
      ),
    ).toBe('Chrome 156 on Linux')
    expect(
      formatUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari 17.4 on iOS 17.4')
    expect(
      formatUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:145.0) Gecko/20100101 Firefox/145.0'),
    ).toMatch(/^Firefox 145 on Windows/)
  })

  it('says when the browser runs headless, an automation tell', () => {
    expect(
      formatUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Headless Chrome 131 on Linux')
  })

  it('gives back a string it cannot read', () => {
    expect(formatUserAgent('curl/8.5.0')).toBe('curl/8.5.0')
    expect(formatUserAgent('')).toBe('')
  })
})
