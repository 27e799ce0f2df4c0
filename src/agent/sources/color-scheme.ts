import { matchMedia } from './media-query'

export function colorScheme() {
  return matchMedia('prefers-color-scheme', ['light', 'dark'])
}
