'use client'

import { useRouter } from 'next/navigation'
import { type FormEvent, useCallback, useState } from 'react'
import { ProofOfWork } from '../ProofOfWork'
import { ConsoleError, callConsole } from './api'
import styles from './console.module.css'

/**
 * Operator sign-in; on success the page re-renders as the dashboard. After a few wrong passwords
 * from this address the server asks for a proof of work: the puzzle is solved in the background
 * and its one-use answer goes with the next attempt.
 */
export function SignInForm() {
  const router = useRouter()
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  // A new puzzle per attempt: each solution is accepted once.
  const [puzzle, setPuzzle] = useState(0)
  const [solution, setSolution] = useState<string | null>(null)
  const onSolved = useCallback((payload: string) => setSolution(payload), [])
  const challenged = puzzle > 0

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setPending(true)
    setError(null)
    try {
      await callConsole('/api/console/session', {
        method: 'POST',
        body: {
          username: String(form.get('username') || 'admin'),
          password: String(form.get('password') ?? ''),
          ...(solution ? { challenge: solution } : {}),
        },
      })
      router.refresh()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Sign-in failed.')
      if (solution || needsPuzzle(failure)) {
        setSolution(null)
        setPuzzle((count) => count + 1)
      }
      setPending(false)
    }
  }

  return (
    <form className={`card ${styles.signIn}`} onSubmit={submit} aria-labelledby="sign-in-heading" noValidate>
      <h2 id="sign-in-heading">Operator sign-in</h2>
      <p className="muted">For the people who run this Tessera server.</p>
      <label className={styles.field}>
        <span>Username</span>
        <input name="username" autoComplete="username" defaultValue="admin" required />
      </label>
      <label className={styles.field}>
        <span>Password</span>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'sign-in-error' : undefined}
        />
      </label>
      {error && (
        <p id="sign-in-error" role="alert" className={styles.error}>
          {error}
        </p>
      )}
      {challenged && (
        <ProofOfWork key={puzzle} onSolved={onSolved} solvedText="Puzzle solved. You can sign in again." />
      )}
      <button type="submit" className="button" disabled={pending || (challenged && !solution)}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  )
}

/** The server wants a solved puzzle with the next attempt. */
function needsPuzzle(failure: unknown): boolean {
  if (!(failure instanceof ConsoleError)) return false
  const details = failure.details as { challenge?: boolean } | undefined
  return failure.code === 'challenge_required' || details?.challenge === true
}
