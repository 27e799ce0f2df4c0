import { describe, expect, it } from 'vitest'
import { absent, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { volatileSources } from './index'
import { storageQuota } from './storage-quota'

const storage = (estimate: () => Promise<StorageEstimate>) => ({ storage: { estimate } })

describe('storageQuota', () => {
  it('is the quota in MiB, rounded', async () => {
    await withMockedNavigator(
      storage(async () => ({ quota: 299_977_904_946, usage: 1_024 })),
      async () => expect(await storageQuota()).toBe(286_081),
    )
    // A private window's small, memory-bound quota.
    await withMockedNavigator(
      storage(async () => ({ quota: 125_829_120, usage: 0 })),
      async () => expect(await storageQuota()).toBe(120),
    )
  })

  it('is volatile: collect may answer differently twice in one page, as storage is used', () => {
    expect(volatileSources.has('storageQuota')).toBe(true)
  })

  it('is unsupported without the Storage API or without a quota in its estimate', async () => {
    await withMockedNavigator({ storage: absent }, async () =>
      expect(await storageQuota()).toBe('unsupported'),
    )
    await withMockedNavigator({ storage: {} }, async () => expect(await storageQuota()).toBe('unsupported'))
    await withMockedNavigator(
      storage(async () => ({ usage: 0 })),
      async () => expect(await storageQuota()).toBe('unsupported'),
    )
  })

  it('rejects where the estimate rejects, and collect records the error', async () => {
    await withMockedNavigator(
      storage(async () => {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      }),
      async () => {
        await expect(storageQuota()).rejects.toThrow('insecure')
        expect(await collectComponent('storageQuota')).toEqual({
          error: 'SecurityError: The operation is insecure.',
          duration: expect.any(Number),
        })
      },
    )
  })
})
