import { matchMedia } from '../marker'

export function reducedTransparency() {
  return matchMedia('prefers-reduced-transparency', ['no-preference', 'reduce'])
}
