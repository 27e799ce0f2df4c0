import { matchMedia } from '../marker'

export function reducedMotion() {
  return matchMedia('prefers-reduced-motion', ['no-preference', 'reduce'])
}
