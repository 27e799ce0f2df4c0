import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { handle, problem } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

// `npm start` and `npm run dev` both run from the repository root, so docs/ is beside the server's
// working directory; `path.join(process.cwd(), …)` is also the form Next's output tracing follows.
const docsDirectory = path.join(process.cwd(), 'docs')

const textHeaders = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }

/**
 * The pages by name ("server-api" for docs/server-api.md), listed from the directory: a query picks a
 * name from this map and never becomes a path, so nothing outside docs/ can be read.
 */
async function listPages(): Promise<Map<string, string>> {
  const files = await readdir(docsDirectory).catch(() => [])
  return new Map(
    files
      .filter((file) => /^[a-z0-9-]+\.md$/.test(file))
      .sort()
      .map((file) => [file.slice(0, -'.md'.length), path.join(docsDirectory, file)]),
  )
}

async function renderIndex(pages: Map<string, string>): Promise<string> {
  const lines = await Promise.all(
    [...pages].map(async ([name, file]) => {
      const title = (await readFile(file, 'utf8')).match(/^# (.+)$/m)?.[1] ?? name
      return `/api/docs?page=${name}  ${title}`
    }),
  )
  return `Tessera's documentation, one page per topic, each as Markdown text:\n\n${lines.join('\n')}\n`
}

/** GET /api/docs lists the pages; GET /api/docs?page=<name> answers docs/<name>.md as text. */
export const GET = handle(async (request: Request) => {
  const pages = await listPages()
  const name = new URL(request.url).searchParams.get('page')
  if (name === null) return new Response(await renderIndex(pages), { headers: textHeaders })
  const file = pages.get(name)
  if (!file) return problem('not_found', 'No documentation page has this name; GET /api/docs lists them.')
  return new Response(await readFile(file, 'utf8'), { headers: textHeaders })
})
