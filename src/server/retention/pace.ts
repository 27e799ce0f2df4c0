/**
 * A pause to await after each chunk of a long deletion, so that the deletion keeps the database
 * busy `share` of the time: each chunk is followed by a pause as much longer than the chunk as
 * the rest of the time is than the share (three times as long for a quarter).
 */
export function pace(share: number): () => Promise<void> {
  const idle = 1 / share - 1
  let started = performance.now()
  return async () => {
    const pause = (performance.now() - started) * idle
    await new Promise((resolve) => setTimeout(resolve, pause).unref())
    started = performance.now()
  }
}
