export function paymentRequest(): boolean {
  return typeof window.PaymentRequest === 'function'
}
