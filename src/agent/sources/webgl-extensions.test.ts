import { beforeEach, describe, expect, it, vi } from 'vitest'
import { partsOf, partsOverlap } from '@/server/identification/fingerprint-profile'
import { withMockedGlobals } from '../../../tests/support/browser-globals'
import { fakeWebglContext, intelAngle, webglDocument } from '../../../tests/support/fake-webgl'

// A structured source: it sends its members, not one hash of the whole, so that the server can
// compare them by overlap (a browser update adding one WebGL extension keeps the rest in common).

// webgl.ts keeps one context per page: each test loads the sources afresh, so none inherits one.
beforeEach(() => {
  vi.resetModules()
})

function withExtensions<Result>(extensions: string[] | null, callback: () => Result): Result {
  const { document } = webglDocument(fakeWebglContext({ ...intelAngle, extensions }))
  return withMockedGlobals({ document }, callback)
}

describe('webglExtensions', () => {
  it('lists the extensions, sorted, and compares them as a set', async () => {
    const { webglExtensions } = await import('./webgl-extensions')
    const before = withExtensions(
      ['OES_texture_float', 'EXT_color_buffer_half_float', 'WEBGL_lose_context'],
      () => webglExtensions(),
    )
    expect(before).toEqual(['EXT_color_buffer_half_float', 'OES_texture_float', 'WEBGL_lose_context'])

    const after = [...(before as string[]), 'EXT_texture_filter_anisotropic']
    const overlap = partsOverlap(partsOf('webglExtensions', before), partsOf('webglExtensions', after))
    expect(overlap).toBe(3 / 4)
  })

  it('is unsupported without WebGL', async () => {
    const { webglExtensions } = await import('./webgl-extensions')
    const { document } = webglDocument(null)
    withMockedGlobals({ document }, () => expect(webglExtensions()).toBe('unsupported'))
  })

  it('is unsupported where a lost context lists no extensions (null)', async () => {
    const { webglExtensions } = await import('./webgl-extensions')
    withExtensions(null, () => expect(webglExtensions()).toBe('unsupported'))
  })

  it('throws where listing them throws, and collect records the error', async () => {
    const { webglExtensions } = await import('./webgl-extensions')
    const { collectComponent } = await import('../../../tests/support/collect-component')
    const failing = {
      ...fakeWebglContext(intelAngle),
      getSupportedExtensions: () => {
        throw new Error('context lost')
      },
    }
    const { document } = webglDocument(failing)
    await withMockedGlobals({ document }, async () => {
      expect(() => webglExtensions()).toThrow('context lost')
      expect(await collectComponent('webglExtensions')).toEqual({
        error: 'Error: context lost',
        duration: expect.any(Number),
      })
    })
  })
})
