import { matchMedia } from './media-query'

export function contrast() {
  return matchMedia('prefers-contrast', ['no-preference', 'more', 'less', 'custom'])
}
