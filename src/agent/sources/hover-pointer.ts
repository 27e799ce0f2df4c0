import { matchMedia } from './media-query'

/** Primary and any-input hover and pointer capabilities. */
export function hoverPointer() {
  return [
    matchMedia('hover', ['hover', 'none']),
    matchMedia('pointer', ['fine', 'coarse', 'none']),
    matchMedia('any-hover', ['hover', 'none']),
    matchMedia('any-pointer', ['fine', 'coarse', 'none']),
  ]
}
