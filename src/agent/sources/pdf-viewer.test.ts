import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { pdfViewer } from './pdf-viewer'

describe('pdfViewer', () => {
  it('is whether the browser shows PDFs inline', () => {
    withMockedNavigator({ pdfViewerEnabled: true }, () => expect(pdfViewer()).toBe(true))
    withMockedNavigator({ pdfViewerEnabled: false }, () => expect(pdfViewer()).toBe(false))
  })

  it('is unsupported in browsers older than the property', () => {
    withMockedNavigator({ pdfViewerEnabled: absent }, () => expect(pdfViewer()).toBe('unsupported'))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedNavigator({ pdfViewerEnabled: refused }, async () => {
      expect(() => pdfViewer()).toThrow('blocked')
      expect(await collectComponent('pdfViewer')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
