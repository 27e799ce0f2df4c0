'use client'

/** The collector inside the iframe; it stays invisible and talks to its parent only. */
export function FrameCollector() {
  return (
    <main>
      <h1 className="visually-hidden">Tessera collector</h1>
      <p className="visually-hidden" role="status">
        Ready
      </p>
    </main>
  )
}
