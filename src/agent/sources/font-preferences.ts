/** Widths of one text in the default and generic fonts, and at the minimum font size. */
export function fontPreferences(): Record<string, number> {
  const holder = document.createElement('div')
  holder.style.cssText = 'position:absolute;left:-9999px;visibility:hidden;white-space:nowrap'
  const styles: Record<string, string> = {
    default: '',
    serif: 'font-family:serif',
    sans: 'font-family:sans-serif',
    mono: 'font-family:monospace',
    system: 'font-family:system-ui',
    min: 'font-size:1px',
  }
  const spans = Object.entries(styles).map(([name, css]) => {
    const span = document.createElement('span')
    span.style.cssText = css
    span.textContent = 'a quick brown fox jumps over the lazy dog'
    holder.appendChild(span)
    return [name, span] as const
  })
  document.body.appendChild(holder)
  const widths = Object.fromEntries(
    spans.map(([name, span]) => [name, Math.round(span.getBoundingClientRect().width * 100) / 100]),
  )
  holder.remove()
  return widths
}
