import { matchMedia } from './media-query'

export function invertedColors() {
  return matchMedia('inverted-colors', ['none', 'inverted'])
}
