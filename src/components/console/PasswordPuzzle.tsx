'use client'

import { useCallback, useState } from 'react'
import { ProofOfWork } from '../ProofOfWork'
import { ConsoleError, consoleUrl } from './api'
import styles from './console.module.css'

/**
 * The proof of work a password attempt needs after wrong passwords (sign-in, or the current
 * password of a change): `afterFailure` starts a new puzzle whenever the server asks for one (each
 * solution is accepted once), and `solution` goes with the next attempt.
 */
export function usePasswordPuzzle() {
  const [puzzle, setPuzzle] = useState(0)
  const [solution, setSolution] = useState<string | null>(null)
  const onSolved = useCallback((payload: string) => setSolution(payload), [])

  function afterFailure(failure: unknown) {
    if (solution || needsPuzzle(failure)) {
      setSolution(null)
      setPuzzle((count) => count + 1)
    }
  }

  return {
    puzzle,
    solution,
    onSolved,
    afterFailure,
    challenged: puzzle > 0,
    waiting: puzzle > 0 && !solution,
  }
}

/** The puzzle's explanation and its widget, for `username`'s next password attempt. */
export function PasswordPuzzle({
  puzzle,
  username,
  onSolved,
  solvedText,
}: {
  puzzle: number
  username: string
  onSolved: (payload: string) => void
  solvedText: string
}) {
  return (
    <div className={styles.puzzle} data-testid="password-puzzle">
      <p className="muted">
        Several wrong passwords were tried for this account, so each attempt first needs a puzzle solved by
        your browser. It grows with every wrong password; the right password always gets in.
      </p>
      <ProofOfWork
        key={puzzle}
        onSolved={onSolved}
        solvedText={solvedText}
        challengeUrl={consoleUrl('GET /api/console/session/challenge', { query: { username } })}
      />
    </div>
  )
}

/** The server wants a solved puzzle with the next attempt. */
function needsPuzzle(failure: unknown): boolean {
  if (!(failure instanceof ConsoleError)) return false
  const details = failure.details as { challenge?: boolean } | undefined
  return failure.code === 'challenge_required' || details?.challenge === true
}
