import { UNSUPPORTED, type Unsupported } from '../unsupported'

type ApplePay = { canMakePayments(): boolean }

export function applePay(): boolean | Unsupported | 'error' {
  const session = (window as unknown as { ApplePaySession?: ApplePay }).ApplePaySession
  if (typeof session?.canMakePayments !== 'function') return UNSUPPORTED
  try {
    return session.canMakePayments()
  } catch {
    // Throws in cross-origin iframes and insecure contexts.
    return 'error'
  }
}
