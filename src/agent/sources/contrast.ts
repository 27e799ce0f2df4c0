import { matchMedia } from '../marker'

export function contrast() {
  return matchMedia('prefers-contrast', ['no-preference', 'more', 'less', 'custom'])
}
