import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { localStorage } from './local-storage'

describe('localStorage', () => {
  it('is true where window.localStorage exists', () => {
    withMockedWindow({ localStorage: { toString: () => '[object Storage]' } }, () =>
      expect(localStorage()).toBe(true),
    )
  })

  it('is false where it does not exist', () => {
    withMockedWindow({ localStorage: absent }, () => expect(localStorage()).toBe(false))
    withMockedWindow({ localStorage: null }, () => expect(localStorage()).toBe(false))
  })

  it('is false, not an error, where reading it throws (a sandboxed frame’s SecurityError)', async () => {
    const refused = getter(() => {
      throw new DOMException(
        'The document is sandboxed and lacks the "allow-same-origin" flag.',
        'SecurityError',
      )
    })
    await withMockedWindow({ localStorage: refused }, async () => {
      expect(localStorage()).toBe(false)
      expect(await collectComponent('localStorage')).toEqual({ value: false, duration: expect.any(Number) })
    })
  })
})
