import { UNSUPPORTED, type Unsupported } from '../unsupported'

/** Evaluates a CSS media query feature against a list of values; the first that matches. */
export function matchMedia(feature: string, values: readonly string[]): string | Unsupported {
  for (const value of values) {
    if (window.matchMedia(`(${feature}: ${value})`).matches) return value
  }
  return UNSUPPORTED
}
