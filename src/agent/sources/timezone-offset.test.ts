import { describe, expect, it } from 'vitest'
import { withMockedProperties } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { timezoneOffset } from './timezone-offset'

/** Date's offsets in a zone that is `winter` minutes off UTC in January and `summer` in July. */
function withOffsets<Result>(january: number, july: number, callback: () => Result): Result {
  function getTimezoneOffset(this: Date) {
    return this.getMonth() === 0 ? january : this.getMonth() === 6 ? july : Number.NaN
  }
  return withMockedProperties(Date.prototype, { getTimezoneOffset }, callback)
}

describe('timezoneOffset', () => {
  it('is the standard-time offset, whichever half of the year is summer', () => {
    // Europe/Paris: UTC+1 in winter, UTC+2 in summer; getTimezoneOffset counts the other way.
    withOffsets(-60, -120, () => expect(timezoneOffset()).toBe(-60))
    // America/New_York: UTC-5, UTC-4.
    withOffsets(300, 240, () => expect(timezoneOffset()).toBe(300))
    // Australia/Sydney: summer in January (UTC+11), standard time in July (UTC+10).
    withOffsets(-660, -600, () => expect(timezoneOffset()).toBe(-600))
    // Asia/Kolkata: no daylight saving time.
    withOffsets(-330, -330, () => expect(timezoneOffset()).toBe(-330))
  })

  it('throws where Date throws, and collect records the error', async () => {
    function getTimezoneOffset(): number {
      throw new Error('blocked')
    }
    await withMockedProperties(Date.prototype, { getTimezoneOffset }, async () => {
      expect(() => timezoneOffset()).toThrow('blocked')
      expect(await collectComponent('timezoneOffset')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
