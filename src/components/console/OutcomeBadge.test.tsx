// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { OutcomeBadge } from './OutcomeBadge'

afterEach(cleanup)

const shown = (decision: Parameters<typeof OutcomeBadge>[0]['decision']) =>
  render(
    <p>
      <OutcomeBadge decision={decision} />
    </p>,
  ).container.firstElementChild

describe('OutcomeBadge', () => {
  it("shows the outcome in words, in a badge of the outcome's colour", () => {
    const line = shown({ outcome: 'deny', challengeSolved: false, answer: null })
    expect(line?.textContent).toBe('denied')
    const badge = line?.querySelector('.badge')
    expect(badge?.textContent).toBe('denied')
    expect(badge?.className).toMatch(/outcome_deny/)
  })

  it('says so after an attempt that solved a challenge', () => {
    const line = shown({ outcome: 'allow', challengeSolved: true, answer: null })
    expect(line?.textContent).toBe('allowed after a solved challenge')
    expect(line?.querySelector('.muted')?.textContent).toBe(' after a solved challenge')
  })

  it("names the answer of a challenge a later attempt answered, or only that it was answered when the answer's decision is gone", () => {
    const answered = shown({
      outcome: 'challenge',
      challengeSolved: false,
      answer: { requestId: 'r2', outcome: 'allow' },
    })
    expect(answered?.textContent).toBe('challenged · answered: allowed')
    cleanup()
    const gone = shown({
      outcome: 'challenge',
      challengeSolved: false,
      answer: { requestId: 'r2', outcome: null },
    })
    expect(gone?.textContent).toBe('challenged · answered')
  })
})
