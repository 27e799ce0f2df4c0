import { describe, expect, it, vi } from 'vitest'

describe('the agent module in Node', () => {
  it('touches no browser global when imported', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    const agent = await import('./index')
    expect(typeof agent.collect).toBe('function')
    expect(typeof agent.load).toBe('function')
    expect(Object.keys(agent.sources).length).toBeGreaterThanOrEqual(45)
  })
})

describe('collect', () => {
  it('isolates a throwing and a never-ending source and keeps to its deadline', async () => {
    const { collect } = await import('./collect')
    const started = performance.now()
    const result = await collect({
      deadline: 300,
      sourceTimeout: 100,
      sources: {
        fine: () => 42,
        throws: () => {
          throw new TypeError('broken on purpose')
        },
        rejects: async () => {
          throw new Error('async failure')
        },
        hangs: () => new Promise(() => undefined),
      },
    })
    const elapsed = performance.now() - started
    const components = result.components as unknown as Record<
      string,
      { value?: unknown; error?: string; duration: number }
    >
    expect(components.fine).toMatchObject({ value: 42 })
    expect(components.throws?.error).toBe('TypeError: broken on purpose')
    expect(components.rejects?.error).toBe('Error: async failure')
    expect(components.hangs?.error).toMatch(/^Timeout/)
    // In Node every browser source fails, and each failure is recorded, not thrown.
    expect(components.canvas?.error).toMatch(/document is not defined|window is not defined/)
    expect(elapsed).toBeLessThan(1000)
    for (const component of Object.values(components)) expect(component.duration).toBeGreaterThanOrEqual(0)
  })
})

describe('collect with stepped sources', () => {
  /** Keeps the thread busy, as a font lookup or a canvas read does. */
  const busy = (ms: number) => {
    const until = performance.now() + ms
    while (performance.now() < until);
  }
  /** A stepped source: `count` steps of 5 ms, each giving the thread back, then `value`. */
  const steps = (count: number, onStep: () => void, value?: string) =>
    function* () {
      for (let step = 0; step < count; step++) {
        busy(5)
        onStep()
        yield
      }
      return value
    }
  const inert = async () => {
    const { sources } = await import('./sources')
    return Object.fromEntries(Object.keys(sources).map((name) => [name, () => null]))
  }

  it('runs a stepped source to its end and gives the thread back between its steps', async () => {
    const { collect } = await import('./collect')
    let turns = 0
    const counting = setInterval(() => turns++, 0)
    let stepsRun = 0
    const result = await collect({
      slice: 8,
      sources: {
        ...(await inert()),
        stepped: steps(6, () => stepsRun++, 'done'),
      },
    })
    clearInterval(counting)
    const components = result.components as unknown as Record<string, { value?: unknown; duration: number }>
    expect(components.stepped?.value).toBe('done')
    expect(stepsRun).toBe(6)
    // Its own time, about 30 ms of steps, not the breaks in between.
    expect(components.stepped?.duration).toBeGreaterThanOrEqual(29)
    // Six 5 ms steps in slices of 8 ms: the thread went back to the page between them.
    expect(result.mainThread.total).toBeGreaterThanOrEqual(29)
    expect(result.mainThread.longest).toBeLessThan(result.mainThread.total)
    expect(turns).toBeGreaterThan(0)
  })

  it('while the Intl worker starts, lets queued tasks run even where scheduler.yield keeps its place', async () => {
    // A fresh agent module, whose Intl warm-up starts a worker that has not answered yet: its start
    // needs turns of the main thread (a browser's worker; none exists in Node).
    vi.resetModules()
    const global = globalThis as { scheduler?: { yield(): Promise<void> }; Worker?: unknown }
    let workers = 0
    global.Worker = class {
      onmessage: unknown = null
      onerror: unknown = null
      constructor() {
        workers++
      }
      terminate() {}
    }
    const { collect } = await import('./collect')
    // A scheduler.yield that resumes before any queued task, as a prioritised continuation can.
    let prioritised = 0
    global.scheduler = {
      yield: () => {
        prioritised++
        return Promise.resolve()
      },
    }
    try {
      let stepsRun = 0
      let taskRanAfter: number | undefined
      setTimeout(() => {
        taskRanAfter = stepsRun
      }, 0)
      // Not asked for (a page whose CSP may refuse blob: workers): no worker at all.
      await collect({ sources: await inert() })
      expect(workers).toBe(0)
      await collect({
        slice: 8,
        intlWorker: true,
        sources: {
          ...(await inert()),
          stepped: steps(12, () => stepsRun++),
        },
      })
      expect(workers).toBe(1)
      expect(prioritised).toBeGreaterThan(0)
      // The page's task ran before the source's last step: a break went to the end of the line.
      expect(taskRanAfter).toBeLessThan(12)
    } finally {
      delete global.scheduler
      delete global.Worker
    }
  })

  it('never yields with slice: Infinity, and gives the same value', async () => {
    const { collect } = await import('./collect')
    const stepped = function* () {
      busy(5)
      yield
      busy(5)
      yield
      return [1, 2]
    }
    const whole = await collect({ slice: Number.POSITIVE_INFINITY, sources: { ...(await inert()), stepped } })
    const sliced = await collect({ slice: 1, sources: { ...(await inert()), stepped } })
    expect(sliced.mainThread.longest).toBeLessThan(sliced.mainThread.total)
    const value = (result: typeof whole) =>
      (result.components as unknown as Record<string, { value?: unknown }>).stepped?.value
    expect(value(sliced)).toEqual(value(whole))
    expect(value(whole)).toEqual([1, 2])
  })

  it('waits for the promise a stepped source ends with, within the source time-out', async () => {
    const { collect } = await import('./collect')
    let stepsRun = 0
    const result = await collect({
      slice: 8,
      sourceTimeout: 150,
      sources: {
        ...(await inert()),
        answers: function* () {
          yield
          stepsRun++
          return new Promise((resolve) => setTimeout(() => resolve('rendered'), 30))
        },
        fails: function* () {
          yield
          return Promise.reject(new RangeError('no render'))
        },
        hangs: function* () {
          yield
          return new Promise(() => undefined)
        },
      },
    })
    const components = result.components as unknown as Record<string, { value?: unknown; error?: string }>
    expect(stepsRun).toBe(1)
    expect(components.answers?.value).toBe('rendered')
    expect(components.fails?.error).toBe('RangeError: no render')
    expect(components.hangs?.error).toBe('Timeout: no answer within 150 ms')
  })

  it('starts the audio service in the background once webgpu has run, before the next source', async () => {
    const { collect } = await import('./collect')
    const { withMockedNavigator } = await import('../../tests/support/browser-globals')
    const order: string[] = []
    const mediaDevices = {
      enumerateDevices: () => {
        order.push('devices listed')
        return new Promise(() => undefined)
      },
    }
    const source = (name: string) => () => {
      order.push(name)
      return 1
    }
    // The list never answers: the collection does not wait for it.
    const result = await withMockedNavigator({ mediaDevices }, async () =>
      collect({
        sources: {
          ...(await inert()),
          audio: source('audio'),
          webgpu: source('webgpu'),
          speechVoices: source('speechVoices'),
        },
        deadline: 500,
      }),
    )
    expect(order).toEqual(['audio', 'webgpu', 'devices listed', 'speechVoices'])
    expect(result.components.speechVoices).toMatchObject({ value: 1 })
  })

  it("ends the caller's task before its first source, unless told never to yield", async () => {
    const { collect } = await import('./collect')
    let ran = false
    // The first source in run order, so only the first break stands before it.
    const sources = {
      ...(await inert()),
      userAgentData: () => {
        ran = true
        return 1
      },
    }
    /** Lets promise callbacks run, but no task: still the caller's task. */
    const sameTask = async () => {
      for (let tick = 0; tick < 20; tick++) await Promise.resolve()
    }
    const sliced = collect({ sources })
    await sameTask()
    expect(ran).toBe(false)
    await sliced
    expect(ran).toBe(true)
    ran = false
    const whole = collect({ slice: Number.POSITIVE_INFINITY, sources })
    await sameTask()
    expect(ran).toBe(true)
    await whole
  })

  it('records a stepped source that throws halfway as an error, after its clean-up ran', async () => {
    const { collect } = await import('./collect')
    let cleaned = false
    const result = await collect({
      sources: {
        ...(await inert()),
        stepped: function* () {
          try {
            yield
            throw new RangeError('half way')
          } finally {
            cleaned = true
          }
        },
      },
    })
    const components = result.components as unknown as Record<string, { error?: string }>
    expect(components.stepped?.error).toBe('RangeError: half way')
    expect(cleaned).toBe(true)
  })
})

describe('hash', () => {
  it('is stable, short and spreads similar inputs', async () => {
    const { hash } = await import('./hash')
    expect(hash('abc')).toBe(hash('abc'))
    expect(hash('abc')).not.toBe(hash('abd'))
    expect(hash('x'.repeat(10_000))).toMatch(/^[0-9a-z]{1,11}$/)
  })
})
