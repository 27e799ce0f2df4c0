import { beforeEach, describe, expect, it, vi } from 'vitest'
import { withMockedGlobals } from '../../../tests/support/browser-globals'
import { fakeWebglContext, intelAngle, webglDocument } from '../../../tests/support/fake-webgl'

// webgl.ts keeps one context per page: each test loads the sources afresh, so none inherits one.
beforeEach(() => {
  vi.resetModules()
})

async function load() {
  const { webglBasics } = await import('./webgl-basics')
  const { collectComponent } = await import('../../../tests/support/collect-component')
  return { webglBasics, collectComponent }
}

describe('webglBasics', () => {
  it('is the version strings and the GPU, unmasked where the debug extension is offered', async () => {
    const { webglBasics } = await load()
    const { document } = webglDocument(fakeWebglContext(intelAngle))
    withMockedGlobals({ document }, () =>
      expect(webglBasics()).toEqual({
        version: 'WebGL 1.0 (OpenGL ES 2.0 Chromium)',
        shadingLanguage: 'WebGL GLSL ES 1.0 (OpenGL ES GLSL ES 1.0 Chromium)',
        vendor: 'WebKit',
        renderer: 'WebKit WebGL',
        unmaskedVendor: 'Google Inc. (Intel)',
        unmaskedRenderer:
          'ANGLE (Intel, Intel(R) UHD Graphics 620 (0x00005917) Direct3D11 vs_5_0 ps_5_0, D3D11)',
      }),
    )
  })

  it('has no unmasked GPU where the debug extension is withheld (Firefox’s resistFingerprinting)', async () => {
    const { webglBasics } = await load()
    const masked = { ...intelAngle, extensions: ['OES_texture_float'] }
    const { document } = webglDocument(fakeWebglContext(masked))
    withMockedGlobals({ document }, () =>
      expect(webglBasics()).toMatchObject({
        renderer: 'WebKit WebGL',
        unmaskedVendor: null,
        unmaskedRenderer: null,
      }),
    )
  })

  it('falls back to experimental-webgl, and shares one context with the other WebGL sources', async () => {
    const { webglBasics } = await load()
    const { webglExtensions } = await import('./webgl-extensions')
    const { webglParameters } = await import('./webgl-parameters')
    const { document, made } = webglDocument(fakeWebglContext(intelAngle), ['experimental-webgl'])
    withMockedGlobals({ document }, () => {
      expect(webglBasics()).toMatchObject({ vendor: 'WebKit' })
      expect(webglExtensions()).toContain('WEBGL_debug_renderer_info')
      expect(webglParameters()).toMatchObject({ MAX_TEXTURE_SIZE: 16_384 })
    })
    expect(made).toEqual({ canvases: 1, requested: ['webgl', 'experimental-webgl'] })
  })

  it('is unsupported where no WebGL context can be had, or getContext throws', async () => {
    const { webglBasics } = await load()
    const { document } = webglDocument(fakeWebglContext(intelAngle), [])
    withMockedGlobals({ document }, () => expect(webglBasics()).toBe('unsupported'))

    vi.resetModules()
    const reloaded = await load()
    const refusing = {
      createElement: () => ({
        getContext: () => {
          throw new Error('Error creating WebGL context.')
        },
      }),
    }
    withMockedGlobals({ document: refusing }, () => expect(reloaded.webglBasics()).toBe('unsupported'))
  })

  it('throws where a lost context throws on getParameter, and collect records the error', async () => {
    const { webglBasics, collectComponent } = await load()
    const lost = {
      ...fakeWebglContext(intelAngle),
      getParameter: () => {
        throw new Error('context lost')
      },
    }
    const { document } = webglDocument(lost)
    await withMockedGlobals({ document }, async () => {
      expect(() => webglBasics()).toThrow('context lost')
      expect(await collectComponent('webglBasics')).toEqual({
        error: 'Error: context lost',
        duration: expect.any(Number),
      })
    })
  })
})
