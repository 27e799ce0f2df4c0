// The replay's clock. identifyVisitor reads the time (`new Date()`, `Date.now()`) to tell a comeback
// from another page of one sitting (30 minutes), and to count an address's sharers and a visitor's
// addresses over the last day. A replay sends hundreds of visits a second, so it says itself when
// each visit happens: while installed, `Date` without arguments is the time last set, and
// everything else is the real Date. PGlite's PostgreSQL reads the same clock for its own timers
// (idle statistics updates): a database must be opened under this clock, and the time must never
// go back by days, or a timer set for the real or a later time waits for weeks (Node warns of a
// timeout overflow and fires it at once, again and again).

const RealDate = Date
let current: number | undefined
let latest = 0

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
  setVirtualTime(start)
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
  latest = Math.max(latest, ms)
}

/** The latest time set so far: what comes next starts after it. */
export function latestVirtualTime(): number {
  return latest
}
