'use client'

import { useRouter } from 'next/navigation'
import { type FormEvent, useState } from 'react'
import { callConsole } from './api'
import styles from './console.module.css'

/** Operator sign-in; on success the page re-renders as the dashboard. */
export function SignInForm() {
  const router = useRouter()
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

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
        },
      })
      router.refresh()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Sign-in failed.')
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
      <button type="submit" className="button" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  )
}
