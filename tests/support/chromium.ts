import { existsSync } from 'node:fs'

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

/** Debian's system Chromium; Playwright's own browser download does not work on this machine. */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH points at ${fromEnv}, which does not exist.`)
    return fromEnv
  }
  const found = candidates.find((path) => existsSync(path))
  if (!found) {
    throw new Error(
      'No Chromium found. Install it with `apt-get install -y chromium` or set CHROMIUM_PATH to a Chromium binary.',
    )
  }
  return found
}

/** Flags that keep Chromium quiet and offline (see TOOLING.md). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
]

export function chromiumLaunchOptions() {
  return { executablePath: findChromium(), args: chromiumArgs }
}
