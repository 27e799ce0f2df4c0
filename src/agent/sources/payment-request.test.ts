import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { paymentRequest } from './payment-request'

describe('paymentRequest', () => {
  it('is true where the Payment Request API exists', () => {
    withMockedWindow({ PaymentRequest: class PaymentRequest {} }, () => expect(paymentRequest()).toBe(true))
  })

  it('is false where it does not, or is not a constructor', () => {
    withMockedWindow({ PaymentRequest: absent }, () => expect(paymentRequest()).toBe(false))
    withMockedWindow({ PaymentRequest: {} }, () => expect(paymentRequest()).toBe(false))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedWindow({ PaymentRequest: refused }, async () => {
      expect(() => paymentRequest()).toThrow('blocked')
      expect(await collectComponent('paymentRequest')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
