// Font families for bench:accuracy, each from a Debian package, shown to each browser through its
// own fontconfig file (FONTCONFIG_FILE): a browser sees exactly the families its file lists.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Families the agent's font probe knows (by `name`), with their directory and Debian package. */
export const fontFamilies = {
  dejavu: { name: 'DejaVu Sans', dir: '/usr/share/fonts/truetype/dejavu', package: 'fonts-dejavu-core' },
  liberation: {
    name: 'Liberation Sans',
    dir: '/usr/share/fonts/truetype/liberation',
    package: 'fonts-liberation',
  },
  lato: { name: 'Lato', dir: '/usr/share/fonts/truetype/lato', package: 'fonts-lato' },
  cantarell: { name: 'Cantarell', dir: '/usr/share/fonts/opentype/cantarell', package: 'fonts-cantarell' },
  openSans: { name: 'Open Sans', dir: '/usr/share/fonts/truetype/open-sans', package: 'fonts-open-sans' },
  roboto: {
    name: 'Roboto',
    dir: '/usr/share/fonts/truetype/roboto/unhinted',
    package: 'fonts-roboto-unhinted',
  },
} as const
export type FontFamily = keyof typeof fontFamilies

/** DejaVu is every profile's system font; the others make up the profiles' font sets. */
export const optionalFamilies = (Object.keys(fontFamilies) as FontFamily[]).filter(
  (family) => family !== 'dejavu',
)

/** Installs the missing font packages (as root, about 10 s for all of them). */
export function ensureFonts() {
  const missing = Object.values(fontFamilies)
    .filter((family) => !existsSync(family.dir))
    .map((family) => family.package)
  if (missing.length === 0) return
  console.log(`Installing ${missing.join(', ')} (apt-get)…`)
  const aptGet = (args: string[]) =>
    execFileSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  try {
    aptGet(['install', '-y', '-qq', ...missing])
  } catch {
    // A machine whose package lists are stale or empty finds nothing: update once and retry.
    aptGet(['update', '-qq'])
    aptGet(['install', '-y', '-qq', ...missing])
  }
}

/**
 * Writes (once) the fontconfig file of a font set and returns its path. One cache directory serves
 * every set: fontconfig caches per font directory, so a set's file only chooses directories.
 */
export function fontconfigFile(work: string, families: readonly FontFamily[]): string {
  const name = [...families].sort().join('+')
  const file = path.join(work, 'fontconfig', `${name}.conf`)
  if (existsSync(file)) return file
  const cache = path.join(work, 'fontconfig', 'cache')
  mkdirSync(cache, { recursive: true })
  const dirs = families.map((family) => `<dir>${fontFamilies[family].dir}</dir>`).join('')
  writeFileSync(file, `<?xml version="1.0"?><fontconfig>${dirs}<cachedir>${cache}</cachedir></fontconfig>`)
  return file
}
