import { describe, expect, it } from 'vitest'
import { absent, withMockedGlobals, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { permissions } from './permissions'

function withPermissionApis<Result>(
  notification: string | typeof absent,
  query: ((descriptor: { name: string }) => Promise<{ state: string }>) | typeof absent,
  callback: () => Result,
): Result {
  const Notification = notification === absent ? absent : { permission: notification }
  const permissionsApi = query === absent ? absent : { query }
  return withMockedGlobals({ Notification }, () =>
    withMockedNavigator({ permissions: permissionsApi }, callback),
  )
}

describe('permissions', () => {
  it('is the notification permission as Notification and the Permissions API each report it', async () => {
    const asked: string[] = []
    await withPermissionApis(
      'default',
      async ({ name }) => {
        asked.push(name)
        return { state: 'prompt' }
      },
      async () => expect(await permissions()).toEqual({ notification: 'default', query: 'prompt' }),
    )
    expect(asked).toEqual(['notifications'])
  })

  it('keeps the inconsistent answer some headless browsers give (denied, yet prompt)', async () => {
    await withPermissionApis(
      'denied',
      async () => ({ state: 'prompt' }),
      async () => expect(await permissions()).toEqual({ notification: 'denied', query: 'prompt' }),
    )
  })

  it('is unsupported where either API is missing', async () => {
    await withPermissionApis(
      absent,
      async () => ({ state: 'prompt' }),
      async () => expect(await permissions()).toBe('unsupported'),
    )
    await withPermissionApis('default', absent, async () => expect(await permissions()).toBe('unsupported'))
  })

  it('rejects where the query rejects, and collect records the error', async () => {
    await withPermissionApis(
      'default',
      async () => {
        throw new TypeError("The provided value 'notifications' is not a valid enum value.")
      },
      async () => {
        await expect(permissions()).rejects.toThrow(TypeError)
        expect(await collectComponent('permissions')).toEqual({
          error: "TypeError: The provided value 'notifications' is not a valid enum value.",
          duration: expect.any(Number),
        })
      },
    )
  })
})
