import { UNSUPPORTED, type Unsupported } from '../unsupported'

/** navigator.webdriver: true when a WebDriver or DevTools automation controls the browser. */
export function webdriver(): boolean | Unsupported {
  return navigator.webdriver ?? UNSUPPORTED
}
