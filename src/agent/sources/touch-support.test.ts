import { describe, expect, it } from 'vitest'
import {
  absent,
  withMockedDocument,
  withMockedNavigator,
  withMockedWindow,
} from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { touchSupport } from './touch-support'

/** A document that creates the listed event interfaces and refuses the others, as browsers do. */
const creatingEvents = (...supported: string[]) => ({
  createEvent: (kind: string) => {
    if (!supported.includes(kind))
      throw new DOMException(`The provided event type ("${kind}") is invalid.`, 'NotSupportedError')
    return { type: '' }
  },
})

describe('touchSupport', () => {
  it('is a phone’s touch points, TouchEvent and ontouchstart', () => {
    withMockedWindow({ ontouchstart: null }, () =>
      withMockedNavigator({ maxTouchPoints: 5 }, () =>
        withMockedDocument(creatingEvents('Event', 'TouchEvent'), () =>
          expect(touchSupport()).toEqual({ maxTouchPoints: 5, touchEvent: true, touchStart: true }),
        ),
      ),
    )
  })

  it('is a desktop’s: no touch points, no TouchEvent, no ontouchstart', () => {
    withMockedWindow({ ontouchstart: absent }, () =>
      withMockedNavigator({ maxTouchPoints: 0 }, () =>
        withMockedDocument(creatingEvents('Event'), () =>
          expect(touchSupport()).toEqual({ maxTouchPoints: 0, touchEvent: false, touchStart: false }),
        ),
      ),
    )
  })

  it('takes a missing maxTouchPoints (older browsers) as 0', () => {
    withMockedWindow({}, () =>
      withMockedNavigator({}, () =>
        withMockedDocument(creatingEvents(), () => expect(touchSupport().maxTouchPoints).toBe(0)),
      ),
    )
  })

  it('counts TouchEvent as missing where there is no document at all (the probe’s try covers it)', () => {
    withMockedWindow({}, () =>
      withMockedNavigator({ maxTouchPoints: 0 }, () =>
        expect(touchSupport()).toEqual({ maxTouchPoints: 0, touchEvent: false, touchStart: false }),
      ),
    )
  })

  it('fails without a navigator, and collect records the error', async () => {
    await withMockedWindow({}, () =>
      withMockedDocument(creatingEvents('TouchEvent'), async () => {
        expect(await collectComponent('touchSupport')).toEqual({
          error: 'ReferenceError: navigator is not defined',
          duration: expect.any(Number),
        })
      }),
    )
  })
})
