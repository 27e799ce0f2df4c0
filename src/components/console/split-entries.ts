/** Entries typed one per line (or comma-separated), blanks dropped: origins, list entries. */
export function splitEntries(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean)
}
