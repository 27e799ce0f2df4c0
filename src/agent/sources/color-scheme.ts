import { matchMedia } from '../marker'

export function colorScheme() {
  return matchMedia('prefers-color-scheme', ['light', 'dark'])
}
