/**
 * Whether something serialises console arguments: the DevTools protocol's Runtime domain, which
 * Playwright, Puppeteer and chromedriver enable, reads the `stack` of logged errors.
 */
export function devtoolsProtocol(): boolean {
  let read = false
  const probe = new Error('tessera probe')
  Object.defineProperty(probe, 'stack', {
    get() {
      read = true
      return ''
    },
  })
  console.debug(probe)
  return read
}
