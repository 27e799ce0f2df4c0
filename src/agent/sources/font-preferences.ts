/**
 * Widths of one text in the browser's default and generic fonts, and at its minimum font size:
 * the user's font settings. Measured from initial styles, so the page's own fonts and sizes do not
 * leak in and the same device reads alike on any page.
 */
export function* fontPreferences(): Generator<void, Record<string, number>> {
  const holder = document.createElement('div')
  holder.style.cssText = 'all:initial;position:absolute;left:-9999px;visibility:hidden;white-space:nowrap'
  const styles: Record<string, string> = {
    default: '',
    serif: 'font-family:serif',
    sans: 'font-family:sans-serif',
    mono: 'font-family:monospace',
    system: 'font-family:system-ui',
    min: 'font-size:1px',
  }
  document.body.appendChild(holder)
  try {
    const widths: Record<string, number> = {}
    // One style per step (each may look a font up): a span's width is its own, whatever else is laid out.
    for (const [name, css] of Object.entries(styles)) {
      yield
      // The page ran meanwhile: if it replaced its body, measure in the new one.
      if (!holder.isConnected) document.body.appendChild(holder)
      const span = document.createElement('span')
      span.style.cssText = `all:initial;${css}`
      span.textContent = 'a quick brown fox jumps over the lazy dog'
      holder.appendChild(span)
      widths[name] = Math.round(span.getBoundingClientRect().width * 100) / 100
      span.remove()
    }
    return widths
  } finally {
    holder.remove()
  }
}
