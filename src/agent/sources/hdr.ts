import { matchMedia } from './media-query'

export function hdr() {
  return matchMedia('dynamic-range', ['high', 'standard'])
}
