import { describe, expect, it } from 'vitest'
import { getter, withMockedNavigator, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { doNotTrack } from './do-not-track'

describe('doNotTrack', () => {
  it('is navigator.doNotTrack as the browser spells it', () => {
    withMockedWindow({}, () => {
      withMockedNavigator({ doNotTrack: '1' }, () => expect(doNotTrack()).toBe('1'))
      withMockedNavigator({ doNotTrack: 'unspecified' }, () => expect(doNotTrack()).toBe('unspecified'))
    })
  })

  it('falls back to the legacy window.doNotTrack, then IE’s window.msDoNotTrack', () => {
    withMockedNavigator({}, () => {
      withMockedWindow({ doNotTrack: '1', msDoNotTrack: '0' }, () => expect(doNotTrack()).toBe('1'))
      withMockedWindow({ msDoNotTrack: '0' }, () => expect(doNotTrack()).toBe('0'))
    })
  })

  it('is unsupported where no form of it exists, or the browser answers null (Chrome with it off)', () => {
    withMockedWindow({}, () => {
      withMockedNavigator({}, () => expect(doNotTrack()).toBe('unsupported'))
      withMockedNavigator({ doNotTrack: null }, () => expect(doNotTrack()).toBe('unsupported'))
    })
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedWindow({}, () =>
      withMockedNavigator({ doNotTrack: refused }, async () => {
        expect(() => doNotTrack()).toThrow('blocked')
        expect(await collectComponent('doNotTrack')).toEqual({
          error: 'Error: blocked',
          duration: expect.any(Number),
        })
      }),
    )
  })
})
