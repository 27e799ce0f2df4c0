import { describe, expect, it } from 'vitest'
import { withMockedDocument } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { privateClickMeasurement } from './private-click-measurement'

/** A document whose anchors carry the given properties (Safari's is attributionSourceId). */
const anchors = (properties: Record<string, unknown>) => ({
  createElement: (tag: string) => (tag === 'a' ? { ...properties } : {}),
})

describe('privateClickMeasurement', () => {
  it('is Safari’s attribution source ID of a new link, as text', () => {
    withMockedDocument(anchors({ attributionSourceId: 0 }), () => expect(privateClickMeasurement()).toBe('0'))
    withMockedDocument(anchors({ attributionsourceid: 17 }), () =>
      expect(privateClickMeasurement()).toBe('17'),
    )
  })

  it('is unsupported where links have no such property (every browser but Safari)', () => {
    withMockedDocument(anchors({ href: '' }), () => expect(privateClickMeasurement()).toBe('unsupported'))
  })

  it('throws where the document cannot create a link, and collect records the error', async () => {
    const refusing = {
      createElement: () => {
        throw new Error('blocked')
      },
    }
    await withMockedDocument(refusing, async () => {
      expect(() => privateClickMeasurement()).toThrow('blocked')
      expect(await collectComponent('privateClickMeasurement')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
