import { matchMedia } from './media-query'

export function colorGamut() {
  return matchMedia('color-gamut', ['rec2020', 'p3', 'srgb'])
}
