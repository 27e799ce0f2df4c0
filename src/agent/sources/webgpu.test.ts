import { beforeEach, describe, expect, it, vi } from 'vitest'
import { absent, withMockedGlobals, withMockedNavigator } from '../../../tests/support/browser-globals'
import {
  fakeWebglContext,
  type GpuProfile,
  intelAngle,
  webglDocument,
} from '../../../tests/support/fake-webgl'

// webgl.ts keeps one context per page: each test loads the sources afresh, so none inherits one.
beforeEach(() => {
  vi.resetModules()
})

const gpu = (requestAdapter: () => Promise<unknown>) => ({ gpu: { requestAdapter } })

/** Runs webgpu (or collects it) in a page whose WebGL context is `profile`'s (none: null). */
async function inPage<Result>(
  profile: GpuProfile | null,
  navigator: Parameters<typeof withMockedNavigator>[0],
  run: (modules: {
    webgpu: () => Promise<unknown>
    collectComponent: (name: 'webgpu') => Promise<unknown>
  }) => Promise<Result>,
): Promise<Result> {
  const { webgpu } = await import('./webgpu')
  const { collectComponent } = await import('../../../tests/support/collect-component')
  const { document } = webglDocument(profile ? fakeWebglContext(profile) : null)
  return withMockedGlobals({ document }, () =>
    withMockedNavigator(navigator, () => run({ webgpu, collectComponent })),
  )
}

const swiftShader: GpuProfile = {
  ...intelAngle,
  parameters: {
    ...intelAngle.parameters,
    UNMASKED_VENDOR_WEBGL: 'Google Inc. (Google)',
    UNMASKED_RENDERER_WEBGL:
      'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
  },
}

describe('webgpu', () => {
  it('is the adapter’s vendor, architecture, device, description and number of features', async () => {
    const adapter = {
      info: { vendor: 'nvidia', architecture: 'ampere', device: '', description: '', subgroupMinSize: 32 },
      features: new Set(['texture-compression-bc', 'timestamp-query', 'shader-f16']),
      limits: { maxBindGroups: 4 },
    }
    await inPage(
      intelAngle,
      gpu(async () => adapter),
      async ({ webgpu }) => {
        expect(await webgpu()).toEqual({
          vendor: 'nvidia',
          architecture: 'ampere',
          device: '',
          description: '',
          features: 3,
        })
      },
    )
  })

  it('fills what an older adapter does not tell (no info, no features) with empty values', async () => {
    await inPage(
      intelAngle,
      gpu(async () => ({})),
      async ({ webgpu }) => {
        expect(await webgpu()).toEqual({
          vendor: '',
          architecture: '',
          device: '',
          description: '',
          features: 0,
        })
      },
    )
  })

  it('is "no-adapter" where WebGPU exists but offers no adapter (blocklisted GPU)', async () => {
    await inPage(
      intelAngle,
      gpu(async () => null),
      async ({ webgpu }) => expect(await webgpu()).toBe('no-adapter'),
    )
  })

  it('is "no-adapter" without asking where WebGL runs without a GPU: asking writes to the console', async () => {
    const requestAdapter = vi.fn(async () => ({}))
    await inPage(swiftShader, { gpu: { requestAdapter } }, async ({ webgpu }) =>
      expect(await webgpu()).toBe('no-adapter'),
    )
    expect(requestAdapter).not.toHaveBeenCalled()
  })

  it('asks as before where WebGL is not there to tell', async () => {
    await inPage(
      null,
      gpu(async () => ({ info: { vendor: 'apple', architecture: '', device: '', description: '' } })),
      async ({ webgpu }) => expect(await webgpu()).toMatchObject({ vendor: 'apple' }),
    )
  })

  it('is unsupported without WebGPU', async () => {
    await inPage(intelAngle, { gpu: absent }, async ({ webgpu }) =>
      expect(await webgpu()).toBe('unsupported'),
    )
  })

  it('rejects where requestAdapter rejects, and collect records the error', async () => {
    await inPage(
      intelAngle,
      gpu(async () => {
        throw new Error('GPU process crashed')
      }),
      async ({ webgpu, collectComponent }) => {
        await expect(webgpu()).rejects.toThrow('GPU process crashed')
        expect(await collectComponent('webgpu')).toEqual({
          error: 'Error: GPU process crashed',
          duration: expect.any(Number),
        })
      },
    )
  })
})
