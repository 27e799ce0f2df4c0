'use client'

import { useRouter } from 'next/navigation'
import { type FormEvent, useCallback, useId, useState } from 'react'
import { FormField } from '../FormField'
import { type FormErrors, noErrors } from '../form-errors'
import { ErrorNote } from '../Notes'
import { ProofOfWork } from '../ProofOfWork'
import { ConsoleError, callConsole, formErrorsOf } from './api'
import styles from './console.module.css'

/**
 * Operator sign-in; on success the page re-renders as the dashboard. After a few wrong passwords
 * from this address the server asks for a proof of work: the puzzle is solved in the background
 * and its one-use answer goes with the next attempt.
 */
export function SignInForm() {
  const router = useRouter()
  const [errors, setErrors] = useState<FormErrors>(noErrors)
  const errorId = useId()
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
    setErrors(noErrors)
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
      setErrors(formErrorsOf(failure, ['username', 'password'], 'Sign-in failed.'))
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
      <FormField label="Username" error={errors.fields.username}>
        {(control) => (
          <input {...control} name="username" autoComplete="username" defaultValue="admin" required />
        )}
      </FormField>
      <FormField
        label="Password"
        error={errors.fields.password}
        invalid={Boolean(errors.form)}
        describedBy={errors.form ? errorId : undefined}
      >
        {(control) => (
          <input {...control} name="password" type="password" autoComplete="current-password" required />
        )}
      </FormField>
      {errors.form && <ErrorNote id={errorId}>{errors.form}</ErrorNote>}
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
