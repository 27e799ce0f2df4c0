// The replay's clock. identifyVisitor reads the time (`new Date()`, `Date.now()`) to tell a comeback
// from another page of one sitting (30 minutes), and to count an address's sharers and a visitor's
// addresses over the last day. A replay sends hundreds of visits a second, so it says itself when
// each visit happens: while installed, `Date` without arguments is the time last set (the
// database's `now()` too: PGlite's clock reads `Date.now()`), and everything else is the real Date.

const RealDate = Date
let current: number | undefined

class VirtualDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(current ?? RealDate.now())
    else super(...(args as [number, number, number, number, number, number, number]))
  }

  static override now(): number {
    return current ?? RealDate.now()
  }

  /** Dates made before the clock was installed (or by code that kept the real Date) are Dates too. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof RealDate
  }
}

/** Runs `task` with the virtual clock installed, starting at `start` (ms since the epoch). */
export async function withVirtualClock<T>(start: number, task: () => Promise<T>): Promise<T> {
  current = start
  globalThis.Date = VirtualDate as DateConstructor
  try {
    return await task()
  } finally {
    globalThis.Date = RealDate
    current = undefined
  }
}

/** Sets the time the next visits happen at. */
export function setVirtualTime(ms: number) {
  current = ms
}
