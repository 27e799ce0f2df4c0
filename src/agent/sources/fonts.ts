const baseFonts = ['monospace', 'sans-serif'] as const

// Fonts that tell operating systems, office suites and language packs apart.
const candidates = [
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

/** Installed fonts, by measurement: a font is present when text in it differs from every fallback. */
export function fonts(): string[] {
  const holder = document.createElement('div')
  holder.style.cssText =
    'position:absolute;left:-9999px;top:0;visibility:hidden;font-size:48px;line-height:normal'
  const make = (family: string) => {
    const span = document.createElement('span')
    span.style.fontFamily = family
    span.textContent = sample
    holder.appendChild(span)
    return span
  }
  const bases = baseFonts.map(make)
  const probes = candidates.map((font) => baseFonts.map((base) => make(`'${font}',${base}`)))
  document.body.appendChild(holder)
  // All spans are in the DOM before the first read, so the browser lays out once.
  const baseWidths = bases.map((span) => [span.offsetWidth, span.offsetHeight])
  const found = candidates.filter((_, index) =>
    (probes[index] ?? []).some(
      (span, base) =>
        span.offsetWidth !== baseWidths[base]?.[0] || span.offsetHeight !== baseWidths[base]?.[1],
    ),
  )
  holder.remove()
  return found
}
