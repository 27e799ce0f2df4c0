import { describe, expect, it } from 'vitest'
import { isFrameMessage, isLoaderMessage } from './messages'

describe('the loader ↔ frame protocol', () => {
  it("accepts the loader's messages in their shapes, collectEarly included", () => {
    expect(isLoaderMessage({ tessera: 'hello', siteKey: 'pk_1' })).toBe(true)
    expect(isLoaderMessage({ tessera: 'hello', siteKey: 'pk_1', collectEarly: false })).toBe(true)
    expect(isLoaderMessage({ tessera: 'get', id: '1', url: 'https://shop.example/' })).toBe(true)
  })

  it('refuses anything else: wrong types, missing fields, other values', () => {
    for (const message of [
      null,
      'hello',
      { tessera: 'hello' },
      { tessera: 'hello', siteKey: 'pk_1', collectEarly: 'no' },
      { tessera: 'get', id: 1, url: 'https://shop.example/' },
      { tessera: 'get', id: '1', url: 'https://shop.example/', tag: 'x' },
      { tessera: 'get', id: '1', url: 'https://shop.example/', withCollection: 'yes' },
      { tessera: 'steal', id: '1' },
    ])
      expect(isLoaderMessage(message), JSON.stringify(message)).toBe(false)
  })

  it("accepts the frame's answers only in their shapes", () => {
    expect(isFrameMessage({ tessera: 'ready' })).toBe(true)
    expect(isFrameMessage({ tessera: 'result', id: '1', result: { visitorId: 'v' } })).toBe(true)
    expect(isFrameMessage({ tessera: 'error', id: '1', message: 'no' })).toBe(true)
    expect(isFrameMessage({ tessera: 'result', id: '1', result: {} })).toBe(false)
    expect(isFrameMessage({ tessera: 'error', id: '1' })).toBe(false)
    expect(isFrameMessage({ tessera: 'refused', reason: 'origin' })).toBe(true)
    expect(isFrameMessage({ tessera: 'refused', reason: 'site' })).toBe(true)
    expect(isFrameMessage({ tessera: 'refused' })).toBe(false)
    expect(isFrameMessage({ tessera: 'refused', reason: 'anything' })).toBe(false)
  })
})
