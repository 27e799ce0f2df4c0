import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { sessionStorage } from './session-storage'

describe('sessionStorage', () => {
  it('is true where window.sessionStorage exists', () => {
    withMockedWindow({ sessionStorage: { toString: () => '[object Storage]' } }, () =>
      expect(sessionStorage()).toBe(true),
    )
  })

  it('is false where it does not exist', () => {
    withMockedWindow({ sessionStorage: absent }, () => expect(sessionStorage()).toBe(false))
    withMockedWindow({ sessionStorage: null }, () => expect(sessionStorage()).toBe(false))
  })

  it('is false, not an error, where reading it throws (a sandboxed frame’s SecurityError)', async () => {
    const refused = getter(() => {
      throw new DOMException(
        'The document is sandboxed and lacks the "allow-same-origin" flag.',
        'SecurityError',
      )
    })
    await withMockedWindow({ sessionStorage: refused }, async () => {
      expect(sessionStorage()).toBe(false)
      expect(await collectComponent('sessionStorage')).toEqual({ value: false, duration: expect.any(Number) })
    })
  })
})
