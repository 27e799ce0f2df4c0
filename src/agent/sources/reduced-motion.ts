import { matchMedia } from './media-query'

export function reducedMotion() {
  return matchMedia('prefers-reduced-motion', ['no-preference', 'reduce'])
}
