import { matchMedia } from '../marker'

export function invertedColors() {
  return matchMedia('inverted-colors', ['none', 'inverted'])
}
