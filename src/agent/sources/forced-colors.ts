import { matchMedia } from '../marker'

export function forcedColors() {
  return matchMedia('forced-colors', ['none', 'active'])
}
