const baseFonts = ['monospace', 'sans-serif'] as const

// Fonts that tell operating systems, office suites and language packs apart.
export const fontCandidates: readonly string[] = [
  'Arial Narrow',
  'Bahnschrift',
  'Calibri',
  'Cambria',
  'Century Gothic',
  'Consolas',
  'Ebrima',
  'Franklin Gothic',
  'Gabriola',
  'Helvetica Neue',
  'Lucida Console',
  'Malgun Gothic',
  'Microsoft YaHei',
  'MS Gothic',
  'Segoe UI',
  'SimSun',
  'Sylfaen',
  'Wingdings',
  'American Typewriter',
  'Avenir Next',
  'Futura',
  'Geneva',
  'Gill Sans',
  'Hiragino Sans',
  'Menlo',
  'Optima',
  'PingFang SC',
  'Skia',
  'Cantarell',
  'DejaVu Sans',
  'Droid Sans',
  'Liberation Sans',
  'Noto Color Emoji',
  'Noto Sans',
  'Noto Sans CJK JP',
  'Roboto',
  'Ubuntu',
  'Fira Sans',
  'Source Code Pro',
  'Open Sans',
  'Lato',
  'Inter',
]

const sample = 'mmMwWLliI0fiflO&1'

/**
 * Families the page itself loads as web fonts (@font-face): measuring them would find the page, not
 * the device — Tessera's own pages load Inter, an integrator's page does not.
 */
function webFontFamilies(): Set<string> {
  const families = new Set<string>()
  document.fonts?.forEach((face) => {
    families.add(face.family.replace(/^['"]|['"]$/g, '').toLowerCase())
  })
  return families
}

/**
 * Candidates measured per step: each lookup goes to the system, and each step lays out once. In
 * Chromium here a layout costs about 1.7 ms and a candidate 0.6 ms: eight a step (about 6 ms, 25
 * at 4× throttling) took a third less time than three, 32 ms against 48 (docs/benchmarks.md).
 */
const CHUNK = 8

/**
 * Installed fonts, by measurement: a font is present when text in it differs from one of the
 * fallbacks. Measured away from the page's own styles, so the same device reads alike on any page.
 * A stepped source: collect gives the page its main thread back between chunks of candidates
 * whenever a slice is used up (a candidate's width is its own, whatever else is laid out).
 */
export function* fonts(): Generator<void, string[]> {
  const webFonts = webFontFamilies()
  const candidates = fontCandidates.filter((font) => !webFonts.has(font.toLowerCase()))
  const holder = document.createElement('div')
  holder.style.cssText = 'all:initial;position:absolute;left:-9999px;top:0;visibility:hidden'
  const make = (family: string) => {
    const span = document.createElement('span')
    span.style.cssText = 'all:initial;font-size:48px;line-height:normal'
    span.style.fontFamily = family
    span.textContent = sample
    holder.appendChild(span)
    return span
  }
  try {
    const bases = baseFonts.map(make)
    document.body.appendChild(holder)
    const baseWidths = bases.map((span) => [span.offsetWidth, span.offsetHeight])
    const found: string[] = []
    for (let start = 0; start < candidates.length; start += CHUNK) {
      yield
      // The page ran meanwhile: if it replaced its body, measure in the new one.
      if (!holder.isConnected) document.body.appendChild(holder)
      const chunk = candidates.slice(start, start + CHUNK)
      // A chunk's spans are all in the DOM before the first read, so the browser lays out once.
      const probes = chunk.map((font) => baseFonts.map((base) => make(`'${font}',${base}`)))
      chunk.forEach((font, index) => {
        const differs = (probes[index] ?? []).some(
          (span, base) =>
            span.offsetWidth !== baseWidths[base]?.[0] || span.offsetHeight !== baseWidths[base]?.[1],
        )
        if (differs) found.push(font)
      })
      for (const span of probes.flat()) span.remove()
    }
    return found
  } finally {
    holder.remove()
  }
}
