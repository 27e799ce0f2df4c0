// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Terms } from './Terms'

afterEach(cleanup)

describe('Terms', () => {
  it("names the server's own retention period, in words that fit its number", () => {
    expect(render(<Terms retentionDays={30} />).container.textContent).toContain('for about 30 days (')
    cleanup()
    expect(render(<Terms retentionDays={1} />).container.textContent).toContain('for about 1 day (')
  })

  it('is closed until opened, and links to the device page where visits are seen and deleted', () => {
    const terms = render(<Terms retentionDays={90} />).container.querySelector('details')
    expect(terms?.open).toBe(false)
    expect(terms?.querySelector('summary')?.textContent).toBe('Read the terms of service')
    const link = terms?.querySelector('a')
    expect(link?.getAttribute('href')).toBe('/device-fingerprint')
    expect(link?.closest('li')?.textContent).toContain('your account stays')
  })
})
