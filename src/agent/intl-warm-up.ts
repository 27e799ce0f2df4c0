/**
 * The first use of Intl in a page loads ICU's locale and time-zone data: one synchronous stretch of
 * 20–30 ms, 85–160 ms on a CPU slowed 4×, the agent's longest. That data belongs to the browser's
 * renderer process, not to one thread, so a worker that touches Intl first loads it off the page's
 * main thread; the sources then read the very same values on the main thread, in a millisecond or
 * two. Nothing waits for it: where workers are unavailable, or the worker is late, the first source
 * to use Intl loads the data itself, as before. Only where asked (`intlWorker`): under a
 * Content-Security-Policy without `worker-src blob:`, the browser refuses the worker and reports a
 * violation. Starting a worker takes a few turns of the main thread: until it has answered,
 * collect.ts sends every third break to the end of the line, where those turns wait.
 */
const WARM_UP = `Intl.DateTimeFormat().resolvedOptions();new Intl.DateTimeFormat(void 0,{hour:'numeric'}).resolvedOptions();new Intl.NumberFormat().format(1.5);new Date().getTimezoneOffset();postMessage(0)`

let started = false
let warming = false

/** Whether the worker is still on its way (collect.ts makes room for it meanwhile). */
export const intlWarming = (): boolean => warming

export function warmUpIntl(): void {
  if (started) return
  started = true
  try {
    if (
      typeof Worker !== 'function' ||
      typeof Blob !== 'function' ||
      typeof URL.createObjectURL !== 'function'
    )
      return
    const url = URL.createObjectURL(new Blob([WARM_UP], { type: 'text/javascript' }))
    const worker = new Worker(url)
    warming = true
    const end = () => {
      warming = false
      clearTimeout(timer)
      worker.terminate()
      URL.revokeObjectURL(url)
    }
    const timer = setTimeout(end, 5_000)
    worker.onmessage = end
    worker.onerror = (event) => {
      event.preventDefault()
      end()
    }
  } catch {
    // No worker here: the sources load Intl's data themselves.
  }
}
