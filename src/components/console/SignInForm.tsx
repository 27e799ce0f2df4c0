'use client'

import { useRouter } from 'next/navigation'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { FormField } from '../FormField'
import { type FormErrors, noErrors } from '../form-errors'
import { ErrorNote } from '../Notes'
import { callConsole, ENDED_SESSION_USER, formErrorsOf, JUST_SIGNED_IN } from './api'
import styles from './console.module.css'
import { PasswordPuzzle, usePasswordPuzzle } from './PasswordPuzzle'

/**
 * Operator sign-in; on success the page re-renders as the dashboard. After a few wrong passwords
 * from this address, or many for this account from anywhere, the server asks for a proof of work:
 * the puzzle is solved in the background and its one-use answer goes with the next attempt.
 */
/** Why a single sign-on came back refused (server/console/oidc.ts), in words. */
const ssoFailures: Record<string, string> = {
  expired: 'That sign-in took too long or began in another browser. Try again.',
  refused: 'Your identity provider did not confirm the sign-in. Try again.',
  'no-role': 'Your identity provider gives you no Tessera role. Ask your administrator to add one.',
  'last-owner':
    'You are the team’s last owner, and your identity provider now gives you a lesser role. Make another operator owner first, or restore your role there.',
  unavailable: 'Your identity provider could not be reached. Try again in a moment.',
}

export function SignInForm({
  singleSignOn,
  sessionEnded = false,
}: {
  singleSignOn?: string
  sessionEnded?: boolean
}) {
  const router = useRouter()
  const formRef = useRef<HTMLFormElement>(null)
  const [errors, setErrors] = useState<FormErrors>(noErrors)
  const errorId = useId()
  const endedId = useId()
  const [pending, setPending] = useState(false)
  const [username, setUsername] = useState('admin')
  // Why this form is shown: the console's session ended (the console left the operator's name in
  // sessionStorage), or the browser came with a session this server no longer knows.
  const [ended, setEnded] = useState(sessionEnded)
  useEffect(() => {
    // Kept until the console is back (Console.tsx): the page may be drawn more than once meanwhile.
    const user = sessionStorage.getItem(ENDED_SESSION_USER)
    if (user === null && !sessionEnded) return
    setEnded(true)
    if (user) setUsername(user)
    // The form sits at the page's end: take the operator to it, at the password when their name is known.
    const field = user ? 'password' : 'username'
    formRef.current?.querySelector<HTMLInputElement>(`input[name="${field}"]`)?.focus()
  }, [sessionEnded])
  // A mark left by a sign-in whose console never drew (an error on the way) is not this one's.
  useEffect(() => forgetSignedIn(), [])
  const { puzzle, solution, onSolved, afterFailure, challenged, waiting } = usePasswordPuzzle()
  const [ssoError, setSsoError] = useState<string | null>(null)
  useEffect(() => {
    const why = new URLSearchParams(window.location.hash.slice(1)).get('sso-error')
    if (why === null) return
    setSsoError(ssoFailures[why] ?? ssoFailures.refused ?? null)
    window.history.replaceState(null, '', window.location.pathname + window.location.search)
  }, [])

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setPending(true)
    setErrors(noErrors)
    try {
      await callConsole('POST /api/console/session', {
        body: {
          username: username.trim() || 'admin',
          password: String(form.get('password') ?? ''),
          ...(solution ? { challenge: solution } : {}),
        },
      })
      rememberSignedIn()
      router.refresh()
    } catch (failure) {
      setErrors(formErrorsOf(failure, ['username', 'password'], 'Sign-in failed.'))
      afterFailure(failure)
      setPending(false)
    }
  }

  return (
    <form
      ref={formRef}
      className={`card ${styles.signIn}`}
      onSubmit={submit}
      aria-labelledby="sign-in-heading"
      noValidate
    >
      <h2 id="sign-in-heading">Operator sign-in</h2>
      {ended ? (
        <p id={endedId} className={styles.hostWarning}>
          <strong>Your session has ended.</strong> Sign in again to go on.
        </p>
      ) : (
        <p className="muted">For the people who run this Tessera server.</p>
      )}
      <FormField label="Username" error={errors.fields.username} describedBy={ended ? endedId : undefined}>
        {(control) => (
          <input
            {...control}
            name="username"
            autoComplete="username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            required
          />
        )}
      </FormField>
      <FormField
        label="Password"
        error={errors.fields.password}
        invalid={Boolean(errors.form)}
        describedBy={
          [errors.form ? errorId : '', ended ? endedId : ''].filter(Boolean).join(' ') || undefined
        }
      >
        {(control) => (
          <input {...control} name="password" type="password" autoComplete="current-password" required />
        )}
      </FormField>
      {errors.form && <ErrorNote id={errorId}>{errors.form}</ErrorNote>}
      {challenged && (
        <PasswordPuzzle
          puzzle={puzzle}
          username={username.trim() || 'admin'}
          onSolved={onSolved}
          solvedText="Puzzle solved. You can sign in again."
        />
      )}
      <button type="submit" className="button" disabled={pending || waiting}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
      {singleSignOn && (
        <>
          <p className={styles.orLine}>or</p>
          {/* A navigation, not a fetch: the provider's page takes over the tab and sends it back. */}
          <a className="button button-secondary" href="/api/sign-in/oidc">
            Sign in with {singleSignOn}
          </a>
          {ssoError && <ErrorNote>{ssoError}</ErrorNote>}
        </>
      )}
    </form>
  )
}

/** Marks the sign-in for the console about to draw (it opens at its top); storage refused, it opens where it is. */
function rememberSignedIn() {
  try {
    sessionStorage.setItem(JUST_SIGNED_IN, '1')
  } catch {}
}

function forgetSignedIn() {
  try {
    sessionStorage.removeItem(JUST_SIGNED_IN)
  } catch {}
}
