import { matchMedia } from './media-query'

export function forcedColors() {
  return matchMedia('forced-colors', ['none', 'active'])
}
