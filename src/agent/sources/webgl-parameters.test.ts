import { beforeEach, describe, expect, it, vi } from 'vitest'
import { partsOf, partsOverlap } from '@/server/identification/fingerprint-profile'
import { withMockedGlobals } from '../../../tests/support/browser-globals'
import {
  fakeWebglContext,
  type GpuProfile,
  intelAngle,
  webglDocument,
} from '../../../tests/support/fake-webgl'

// A structured source: it sends each limit as a field, not one hash of the whole, so that the
// server compares them field by field (a driver update raising one limit keeps the rest in common).

// webgl.ts keeps one context per page: each test loads the sources afresh, so none inherits one.
beforeEach(() => {
  vi.resetModules()
})

function withGpu<Result>(profile: GpuProfile, callback: () => Result): Result {
  const { document } = webglDocument(fakeWebglContext(profile))
  return withMockedGlobals({ document }, callback)
}

describe('webglParameters', () => {
  it('is every limit and shader precision as a field, typed arrays as plain arrays', async () => {
    const { webglParameters } = await import('./webgl-parameters')
    const value = withGpu(intelAngle, () => webglParameters()) as Record<string, unknown>
    expect(value).toMatchObject({
      MAX_TEXTURE_SIZE: 16_384,
      MAX_VIEWPORT_DIMS: [32_767, 32_767],
      ALIASED_LINE_WIDTH_RANGE: [1, 1],
      ALIASED_POINT_SIZE_RANGE: [1, 1024],
      DEPTH_BITS: 24,
      STENCIL_BITS: 0,
      'VERTEX_SHADER.HIGH_FLOAT': [127, 127, 23],
      'FRAGMENT_SHADER.HIGH_INT': [31, 30, 0],
    })
    expect(Object.keys(value)).toHaveLength(28)
    // JSON-able: what the agent sends is what the server compares.
    expect(JSON.parse(JSON.stringify(value))).toEqual(value)
  })

  it('sends each limit as a field, so one raised limit keeps the others in common', async () => {
    const { webglParameters } = await import('./webgl-parameters')
    const before = withGpu({ ...intelAngle, parameters: { MAX_TEXTURE_SIZE: 8192 } }, () =>
      webglParameters(),
    ) as Record<string, number | number[]>
    expect(before.MAX_TEXTURE_SIZE).toBe(8192)
    expect(before['FRAGMENT_SHADER.HIGH_FLOAT']).toEqual([127, 127, 23])
    const fields = Object.keys(before).length
    expect(fields).toBe(28)

    const after = { ...before, MAX_TEXTURE_SIZE: 16384 }
    const overlap = partsOverlap(partsOf('webglParameters', before), partsOf('webglParameters', after))
    expect(overlap).toBeCloseTo((fields - 1) / (fields + 1))
  })

  it('keeps a precision the driver does not report as null', async () => {
    const { webglParameters } = await import('./webgl-parameters')
    const value = withGpu({ ...intelAngle, precision: () => null }, () => webglParameters())
    expect(value).toMatchObject({ 'VERTEX_SHADER.LOW_FLOAT': null, 'FRAGMENT_SHADER.HIGH_INT': null })
  })

  it('is unsupported without WebGL', async () => {
    const { webglParameters } = await import('./webgl-parameters')
    const { document } = webglDocument(null)
    withMockedGlobals({ document }, () => expect(webglParameters()).toBe('unsupported'))
  })

  it('throws where a lost context throws, and collect records the error', async () => {
    const { webglParameters } = await import('./webgl-parameters')
    const { collectComponent } = await import('../../../tests/support/collect-component')
    const lost = {
      ...fakeWebglContext(intelAngle),
      getShaderPrecisionFormat: () => {
        throw new Error('context lost')
      },
    }
    const { document } = webglDocument(lost)
    await withMockedGlobals({ document }, async () => {
      expect(() => webglParameters()).toThrow('context lost')
      expect(await collectComponent('webglParameters')).toEqual({
        error: 'Error: context lost',
        duration: expect.any(Number),
      })
    })
  })
})
