'use client'

import { useId, useState } from 'react'
import styles from './SignupForm.module.css'

/** The sign-up form; its protected submission arrives with the registration issue. */
export function SignupForm() {
  const [showPassword, setShowPassword] = useState(false)
  const formId = useId()
  const noticeId = `${formId}-notice`

  return (
    <div className={`container ${styles.page}`}>
      <section className={`card ${styles.formCard}`} aria-labelledby="signup-heading">
        <h1 id="signup-heading">Create your account</h1>
        <p className="muted">A real sign-up, protected by Tessera&rsquo;s device intelligence.</p>
        <form
          className={styles.form}
          aria-describedby={noticeId}
          onSubmit={(event) => event.preventDefault()}
        >
          <div className={styles.field}>
            <label htmlFor={`${formId}-name`}>Full name</label>
            <input id={`${formId}-name`} name="name" autoComplete="name" maxLength={100} required />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${formId}-email`}>Email</label>
            <input id={`${formId}-email`} name="email" type="email" autoComplete="email" required />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${formId}-password`}>Password</label>
            <div className={styles.passwordRow}>
              <input
                id={`${formId}-password`}
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="new-password"
                minLength={12}
                maxLength={128}
                required
                aria-describedby={`${formId}-password-hint`}
              />
              <button
                type="button"
                className="button button-secondary"
                aria-pressed={showPassword}
                onClick={() => setShowPassword((shown) => !shown)}
              >
                {showPassword ? 'Hide' : 'Show'}
              </button>
            </div>
            <p id={`${formId}-password-hint`} className={styles.hint}>
              12 to 128 characters; avoid common or easily guessed passwords.
            </p>
          </div>
          <div className={styles.checkbox}>
            <input id={`${formId}-terms`} name="terms" type="checkbox" required />
            <label htmlFor={`${formId}-terms`}>I accept the terms of service</label>
          </div>
          <p id={noticeId} className={styles.notice} role="note">
            Sign-ups are not open on this server yet: the device check that protects them is being set up.
          </p>
          <button type="submit" className="button" disabled>
            Create account
          </button>
        </form>
      </section>

      <aside className={styles.aside} aria-labelledby="protection-heading">
        <h2 id="protection-heading">How this sign-up is protected</h2>
        <ol>
          <li>Your browser runs Tessera&rsquo;s agent and gets a one-time request ID.</li>
          <li>The server looks that request up itself — it never trusts an ID sent by the browser.</li>
          <li>
            The sign-up is allowed, asked to solve a short proof-of-work puzzle, or refused, and the reasons
            are recorded for the operator.
          </li>
        </ol>
        <p className="muted">
          Curious what your browser reveals? <a href="/device-fingerprint">Inspect your device</a>.
        </p>
      </aside>
    </div>
  )
}
