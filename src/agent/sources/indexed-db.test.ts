import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { indexedDb } from './indexed-db'

describe('indexedDb', () => {
  it('is true where window.indexedDB exists', () => {
    withMockedWindow({ indexedDB: { toString: () => '[object IDBFactory]' } }, () =>
      expect(indexedDb()).toBe(true),
    )
  })

  it('is false where it does not exist', () => {
    withMockedWindow({ indexedDB: absent }, () => expect(indexedDb()).toBe(false))
    withMockedWindow({ indexedDB: null }, () => expect(indexedDb()).toBe(false))
  })

  it('is false, not an error, where reading it throws (a sandboxed frame’s SecurityError)', async () => {
    const refused = getter(() => {
      throw new DOMException(
        'The document is sandboxed and lacks the "allow-same-origin" flag.',
        'SecurityError',
      )
    })
    await withMockedWindow({ indexedDB: refused }, async () => {
      expect(indexedDb()).toBe(false)
      expect(await collectComponent('indexedDb')).toEqual({ value: false, duration: expect.any(Number) })
    })
  })
})
