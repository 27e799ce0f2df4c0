import { describe, expect, it } from 'vitest'
import { absent, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { webgpu } from './webgpu'

const gpu = (requestAdapter: () => Promise<unknown>) => ({ gpu: { requestAdapter } })

describe('webgpu', () => {
  it('is the adapter’s vendor, architecture, device, description and number of features', async () => {
    const adapter = {
      info: { vendor: 'nvidia', architecture: 'ampere', device: '', description: '', subgroupMinSize: 32 },
      features: new Set(['texture-compression-bc', 'timestamp-query', 'shader-f16']),
      limits: { maxBindGroups: 4 },
    }
    await withMockedNavigator(
      gpu(async () => adapter),
      async () => {
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
    await withMockedNavigator(
      gpu(async () => ({})),
      async () => {
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
    await withMockedNavigator(
      gpu(async () => null),
      async () => expect(await webgpu()).toBe('no-adapter'),
    )
  })

  it('is unsupported without WebGPU', async () => {
    await withMockedNavigator({ gpu: absent }, async () => expect(await webgpu()).toBe('unsupported'))
  })

  it('rejects where requestAdapter rejects, and collect records the error', async () => {
    await withMockedNavigator(
      gpu(async () => {
        throw new Error('GPU process crashed')
      }),
      async () => {
        await expect(webgpu()).rejects.toThrow('GPU process crashed')
        expect(await collectComponent('webgpu')).toEqual({
          error: 'Error: GPU process crashed',
          duration: expect.any(Number),
        })
      },
    )
  })
})
