import { describe, expect, it } from 'vitest'

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

describe('hash', () => {
  it('is stable, short and spreads similar inputs', async () => {
    const { hash } = await import('./hash')
    expect(hash('abc')).toBe(hash('abc'))
    expect(hash('abc')).not.toBe(hash('abd'))
    expect(hash('x'.repeat(10_000))).toMatch(/^[0-9a-z]{1,11}$/)
  })
})
