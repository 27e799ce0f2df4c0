/** Plugin names with their MIME types. */
export function plugins(): string[] {
  return Array.from(navigator.plugins ?? [], (plugin) => {
    const types = Array.from(plugin as ArrayLike<MimeType>, (mime) => mime.type).join(',')
    return `${plugin.name}|${types}`
  })
}
