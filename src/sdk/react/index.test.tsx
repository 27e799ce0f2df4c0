// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Agent, GetOptions, IdentifyResult, LoadOptions } from '../../agent'

// The agent is replaced by a counting fake: these tests are about the hook, not collection.
const agent = vi.hoisted(() => ({
  loads: [] as LoadOptions[],
  gets: [] as GetOptions[],
  fail: false,
  /** Resolves the pending get() calls, in order. */
  release: [] as Array<() => void>,
}))
vi.mock('../../agent', () => ({
  load: async (options: LoadOptions): Promise<Agent> => {
    agent.loads.push(options)
    return {
      get: (options: GetOptions = {}) =>
        new Promise<IdentifyResult>((resolve, reject) => {
          const number = agent.gets.push(options)
          agent.release.push(() =>
            agent.fail ? reject(new Error('Tessera: the collector did not answer')) : resolve(answer(number)),
          )
        }),
    }
  },
}))

const { TesseraProvider, useVisitorData } = await import('./index')

function answer(number: number): IdentifyResult {
  return {
    requestId: `req-${number}`,
    visitorId: 'visitor-1',
    visitorFound: true,
    confidence: { score: 0.99 },
    firstSeenAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-01T00:00:00.000Z',
    signals: {},
    suspectScore: 0,
  }
}

/** Lets every get() started so far answer. */
async function releaseAll() {
  await waitFor(() => expect(agent.release.length).toBeGreaterThan(0))
  await act(async () => {
    for (const release of agent.release.splice(0)) release()
  })
}

function Visitor({ name, immediate, linkedId }: { name: string; immediate?: boolean; linkedId?: string }) {
  const { data, isLoading, error, getData } = useVisitorData({ immediate, linkedId })
  return (
    <div data-testid={name}>
      <span>{isLoading ? 'loading' : 'idle'}</span>
      <span>{data ? `${data.visitorId} ${data.requestId}` : 'no data'}</span>
      <span>{error ? `error: ${error.message}` : 'no error'}</span>
      <button type="button" onClick={() => void getData().catch(() => undefined)}>
        {name} again
      </button>
      <button type="button" onClick={() => void getData({ ignoreCache: true }).catch(() => undefined)}>
        {name} fresh
      </button>
    </div>
  )
}

const text = (name: string) => screen.getByTestId(name).textContent

beforeEach(() => {
  agent.loads.length = 0
  agent.gets.length = 0
  agent.release.length = 0
  agent.fail = false
  window.sessionStorage.clear()
})
afterEach(cleanup)

describe('useVisitorData', () => {
  it('is loading, then has the answer', async () => {
    render(
      <TesseraProvider siteKey="pk_test" endpoint="https://tessera.example">
        <Visitor name="a" />
      </TesseraProvider>,
    )
    expect(text('a')).toBe('loadingno datano errora againa fresh')
    await releaseAll()
    await waitFor(() => expect(text('a')).toContain('idlevisitor-1 req-1no error'))
    expect(agent.loads).toEqual([
      { siteKey: 'pk_test', endpoint: 'https://tessera.example', apiPrefix: undefined, timeout: undefined },
    ])
  })

  it('reports a failure as an error, and recovers on the next call', async () => {
    agent.fail = true
    render(
      <TesseraProvider siteKey="pk_test">
        <Visitor name="a" />
      </TesseraProvider>,
    )
    await releaseAll()
    await waitFor(() =>
      expect(text('a')).toContain('idleno dataerror: Tessera: the collector did not answer'),
    )
    agent.fail = false
    await act(async () => screen.getByText('a again').click())
    expect(text('a')).toContain('loading')
    await releaseAll()
    await waitFor(() => expect(text('a')).toContain('idlevisitor-1 req-2no error'))
  })

  it('waits for getData() when not immediate', async () => {
    render(
      <TesseraProvider siteKey="pk_test">
        <Visitor name="a" immediate={false} />
      </TesseraProvider>,
    )
    expect(text('a')).toContain('idleno data')
    expect(agent.gets).toHaveLength(0)
    await act(async () => screen.getByText('a again').click())
    await releaseAll()
    await waitFor(() => expect(text('a')).toContain('visitor-1 req-1'))
  })

  it('makes one request for two components (and for Strict Mode’s second effect)', async () => {
    render(
      <StrictMode>
        <TesseraProvider siteKey="pk_test">
          <Visitor name="a" />
          <Visitor name="b" />
        </TesseraProvider>
      </StrictMode>,
    )
    await releaseAll()
    await waitFor(() => expect(text('b')).toContain('visitor-1 req-1'))
    expect(text('a')).toContain('visitor-1 req-1')
    expect(agent.gets).toHaveLength(1)
    expect(agent.loads).toHaveLength(1)
  })

  it('runs different options one after the other, never two at once', async () => {
    render(
      <TesseraProvider siteKey="pk_test">
        <Visitor name="a" linkedId="account-1" />
        <Visitor name="b" linkedId="account-2" />
      </TesseraProvider>,
    )
    await waitFor(() => expect(agent.gets).toHaveLength(1))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(agent.gets).toHaveLength(1) // the second waits for the first
    await releaseAll()
    await waitFor(() => expect(agent.gets).toHaveLength(2))
    await releaseAll()
    await waitFor(() => expect(text('b')).toContain('req-2'))
    expect(text('a')).toContain('req-1')
    expect(agent.gets.map((get) => get.linkedId)).toEqual(['account-1', 'account-2'])
  })

  it.each(['memory', 'sessionStorage'] as const)(
    'answers from the %s cache, and ignoreCache identifies again',
    async (cache) => {
      render(
        <TesseraProvider siteKey="pk_test" cache={cache}>
          <Visitor name="a" />
        </TesseraProvider>,
      )
      await releaseAll()
      await waitFor(() => expect(text('a')).toContain('req-1'))
      await act(async () => screen.getByText('a again').click())
      await waitFor(() => expect(text('a')).toContain('idlevisitor-1 req-1'))
      expect(agent.gets).toHaveLength(1) // a cache hit
      await act(async () => screen.getByText('a fresh').click())
      await releaseAll()
      await waitFor(() => expect(text('a')).toContain('req-2'))
      expect(agent.gets).toHaveLength(2)
      if (cache === 'sessionStorage') expect(window.sessionStorage.length).toBe(1)
    },
  )

  it('keeps nothing without a cache', async () => {
    render(
      <TesseraProvider siteKey="pk_test">
        <Visitor name="a" />
      </TesseraProvider>,
    )
    await releaseAll()
    await waitFor(() => expect(text('a')).toContain('req-1'))
    await act(async () => screen.getByText('a again').click())
    await releaseAll()
    await waitFor(() => expect(text('a')).toContain('req-2'))
    expect(window.sessionStorage.length).toBe(0)
  })

  it('says where it must be used', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    expect(() => render(<Visitor name="a" />)).toThrow('inside a <TesseraProvider>')
  })
})
