import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { sources } from './index'

// Every registered source has a specification beside it: a top-level describe('<sourceName>') in a
// test file of this folder, with a test of what collect() records for it (its failure path, run
// through the collector, or for sources that cannot fail, its value).

const folder = import.meta.dirname
const specifications = readdirSync(folder)
  .filter((file) => file.endsWith('.test.ts') && file !== 'registry.test.ts')
  .map((file) => ({ file, text: readFileSync(path.join(folder, file), 'utf8') }))

const described = specifications.flatMap(({ file, text }) =>
  [...text.matchAll(/^describe\('(\w+)'/gm)].map(([, name]) => ({ file, name: name ?? '' })),
)
const registered = Object.keys(sources)

describe('the source registry', () => {
  it('has a specification for every source', () => {
    const specified = new Set(described.map(({ name }) => name))
    expect(registered.filter((name) => !specified.has(name))).toEqual([])
  })

  it('has one specification per source, each for a registered source', () => {
    const names = described.map(({ name }) => name)
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([])
    expect(names.filter((name) => !registered.includes(name))).toEqual([])
  })

  it('runs every source through collect() in its specification', () => {
    const throughCollect = registered.filter((name) => {
      const file = described.find((entry) => entry.name === name)?.file
      const text = specifications.find((entry) => entry.file === file)?.text ?? ''
      return new RegExp(`(collectComponent|failsWithoutMatchMedia)\\('${name}'`).test(text)
    })
    expect(registered.filter((name) => !throughCollect.includes(name))).toEqual([])
  })

  it('names sources after their files: kebab-case file, camelCase export', () => {
    const files = readdirSync(folder).filter((file) => /^[a-z-]+\.ts$/.test(file) && file !== 'index.ts')
    const exported = files.map((file) =>
      file.replace(/\.ts$/, '').replace(/-(\w)/g, (_, letter) => letter.toUpperCase()),
    )
    // webgl.ts (the shared context) and media-query.ts (the shared media matcher) are helpers, not sources.
    expect(exported.filter((name) => !registered.includes(name)).sort()).toEqual(['mediaQuery', 'webgl'])
  })
})
