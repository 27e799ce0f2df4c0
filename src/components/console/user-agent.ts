import Bowser from 'bowser'

// Apart from format.ts, so that only the console's visitor history loads the parser.

/**
 * A user agent as a reader names it, e.g. "Chrome 156 on Linux" or "Safari 17.4 on iOS 17.4": the
 * browser with its major version (Safari's, which is the system's, in full) and the system; a
 * headless browser says so (an automation tell an analyst must not miss); the string itself when
 * neither browser nor system is known.
 */
export function formatUserAgent(userAgent: string): string {
  if (userAgent.trim() === '') return userAgent
  const { browser, os } = Bowser.parse(userAgent)
  const version = browser.name === 'Safari' ? browser.version : browser.version?.split('.')[0]
  const headless = /headless/i.test(userAgent) && !/headless/i.test(browser.name ?? '') ? 'Headless ' : ''
  const name = browser.name ? `${headless}${[browser.name, version].filter(Boolean).join(' ')}` : null
  const system = os.name ? [os.name, os.version].filter(Boolean).join(' ') : null
  if (!name && !system) return userAgent
  return [name ?? 'A browser', system].filter(Boolean).join(' on ')
}
