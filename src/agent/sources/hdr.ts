import { matchMedia } from '../marker'

export function hdr() {
  return matchMedia('dynamic-range', ['high', 'standard'])
}
