import { describe, expect, it } from 'vitest'
import { absent, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { applePay } from './apple-pay'

const session = (canMakePayments: () => boolean) => ({ ApplePaySession: { canMakePayments } })

describe('applePay', () => {
  it('is whether Safari can make Apple Pay payments here', () => {
    withMockedWindow(
      session(() => true),
      () => expect(applePay()).toBe(true),
    )
    withMockedWindow(
      session(() => false),
      () => expect(applePay()).toBe(false),
    )
  })

  it('is unsupported outside Safari, or where canMakePayments is not a function', () => {
    withMockedWindow({ ApplePaySession: absent }, () => expect(applePay()).toBe('unsupported'))
    withMockedWindow({ ApplePaySession: {} }, () => expect(applePay()).toBe('unsupported'))
  })

  it('is the value "error", not a failure, where canMakePayments throws (cross-origin frames)', async () => {
    const throwing = session(() => {
      throw new DOMException(
        'Trying to call an ApplePaySession API from an insecure document',
        'InvalidAccessError',
      )
    })
    await withMockedWindow(throwing, async () => {
      expect(applePay()).toBe('error')
      expect(await collectComponent('applePay')).toEqual({ value: 'error', duration: expect.any(Number) })
    })
  })
})
