// The layer rule bites: `npm run lint` (Biome, with the repository's biome.json) refuses an import
// that goes up a layer or round a circle. Each case is a small file written where it would live,
// in a scratch copy of the layout, and linted with the repository's own configuration.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = path.resolve(__dirname, '../..')
const biome = path.join(root, 'node_modules/.bin/biome')
const scratch = mkdtempSync(path.join(tmpdir(), 'tessera-layers-'))
const config = JSON.parse(readFileSync(path.join(root, 'biome.json'), 'utf8'))
// The scratch copy is not a git checkout, and has no schema beside it.
delete config.$schema
config.vcs = { enabled: false }
writeFileSync(path.join(scratch, 'biome.json'), JSON.stringify(config))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let caseNumber = 0
/** Lints the given files (path → source) in a fresh directory; returns the rules that fired. */
function lint(files: Record<string, string>): string[] {
  const dir = path.join(scratch, `case-${caseNumber++}`)
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), source)
  }
  writeFileSync(path.join(dir, 'biome.json'), JSON.stringify({ extends: ['../biome.json'], root: false }))
  let output: string
  try {
    output = execFileSync(biome, ['lint', '--max-diagnostics=50', '.'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
    })
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string }
    output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`
  }
  return [...output.matchAll(/lint\/\w+\/(\w+)/g)].map((match) => match[1] as string)
}

const importing = (specifier: string) => `import { thing } from '${specifier}'\n\nexport const used = thing\n`

describe('layers (biome.json, ARCHITECTURE.md)', () => {
  it.each([
    ['src/components/Panel.tsx', '@/server/env', 'UI never imports the server'],
    ['src/components/console/Panel.tsx', '../../server/db/client', 'not by a relative path either'],
    ['src/components/Panel.tsx', '@/app/api/health/route', 'UI never imports routes'],
    ['src/agent/sources/probe.ts', '@/contracts/identify', 'the agent imports nothing outside itself'],
    ['src/agent/probe.ts', 'react', 'the agent ships without React'],
    ['src/server/http/probe.ts', 'tessera/server', 'the server never imports the SDKs, aliased or not'],
    ['src/contracts/probe.ts', '@/server/db/client', 'contracts sit below the server'],
    ['src/sdk/react/probe.ts', '@/server/env', 'the SDKs never import the server'],
    ['src/server/http/probe.ts', '@/app/api/v1/identify/route', 'the server never imports a route'],
    ['src/server/http/probe.ts', '@/components/Notes', 'the server never imports UI'],
    ['src/app/api/probe/route.ts', 'drizzle-orm', 'Drizzle only under server/'],
    ['src/components/Panel.tsx', '@electric-sql/pglite', 'no database driver outside server/'],
  ])('%s importing %s is refused (%s)', (file, specifier) => {
    expect(lint({ [file]: importing(specifier) })).toContain('noRestrictedImports')
  })

  it.each([
    ['src/components/Panel.tsx', '@/contracts/console'],
    ['src/contracts/probe.ts', '@/agent/sources'],
    ['src/sdk/react/probe.ts', '@/agent/loader'],
    ['src/server/http/probe.ts', 'drizzle-orm'],
    ['src/app/api/probe/route.ts', '@/server/http/respond'],
    ['src/components/Panel.test.tsx', '@/server/env'],
  ])('%s importing %s is allowed', (file, specifier) => {
    expect(lint({ [file]: importing(specifier) })).toEqual([])
  })

  it('refuses an import cycle, a type-only one included', () => {
    expect(
      lint({
        'src/server/a.ts': "import { b } from './b'\n\nexport const a = () => b\n",
        'src/server/b.ts': "import type { a } from './a'\n\nexport const b = (x: typeof a) => x\n",
      }),
    ).toContain('noImportCycles')
  })
})
