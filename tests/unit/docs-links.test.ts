import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// Every page a newcomer reads, and every relative link in them: a moved or renamed page or heading
// must not leave a link pointing nowhere.
const root = path.resolve(__dirname, '../..')
const pages = [
  'README.md',
  'ARCHITECTURE.md',
  'SECURITY.md',
  'src/server/identification/MODEL.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

const anchorsOf = (text: string) =>
  new Set(
    text
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, ''))),
  )

/** Relative links of a Markdown page, outside code blocks. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target))
}

describe('documentation links', () => {
  it.each(pages)('%s links only to pages and headings that exist', (page) => {
    const text = readFileSync(path.join(root, page), 'utf8')
    const broken: string[] = []
    for (const link of linksOf(text)) {
      const [file = '', anchor] = link.split('#')
      const target = file ? path.resolve(path.dirname(path.join(root, page)), file) : path.join(root, page)
      if (!existsSync(target)) broken.push(link)
      else if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
        broken.push(link)
    }
    expect(broken).toEqual([])
  })

  it('the README links every docs/ page', () => {
    const readmeLinks = new Set(
      linksOf(readFileSync(path.join(root, 'README.md'), 'utf8')).map((link) => link.split('#')[0]),
    )
    const unlinked = pages.filter((page) => page.startsWith('docs/') && !readmeLinks.has(page))
    expect(unlinked).toEqual([])
  })

  it('finds a link that points nowhere', () => {
    expect(linksOf('see [this](docs/none.md) and `[not](code.md)`')).toEqual(['docs/none.md'])
    expect(
      anchorsOf('## Running on PostgreSQL and behind a load balancer').has(
        'running-on-postgresql-and-behind-a-load-balancer',
      ),
    ).toBe(true)
  })
})
