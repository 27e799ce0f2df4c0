import { matchMedia } from './media-query'

export function reducedTransparency() {
  return matchMedia('prefers-reduced-transparency', ['no-preference', 'reduce'])
}
