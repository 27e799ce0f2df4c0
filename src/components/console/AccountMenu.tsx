'use client'

import { useRouter } from 'next/navigation'
import { type FormEvent, useState } from 'react'
import { callConsole } from './api'
import styles from './console.module.css'

/** Signed-in operator: change password, sign out. */
export function AccountMenu({ username }: { username: string }) {
  const router = useRouter()
  const [open, setOpen] = useState(false)
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null)

  async function signOut() {
    await callConsole('/api/console/session', { method: 'DELETE' })
    router.refresh()
  }

  async function changePassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    try {
      await callConsole('/api/console/password', {
        method: 'POST',
        body: {
          currentPassword: String(data.get('current') ?? ''),
          newPassword: String(data.get('next') ?? ''),
        },
      })
      form.reset()
      setMessage({ tone: 'success', text: 'Password changed. Every other session is signed out.' })
    } catch (error) {
      setMessage({
        tone: 'error',
        text: error instanceof Error ? error.message : 'Could not change the password.',
      })
    }
  }

  return (
    <div className={styles.account}>
      <span className="muted">
        Signed in as <strong>{username}</strong>
      </span>
      <button
        type="button"
        className="button button-secondary"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        Change password
      </button>
      <button type="button" className="button button-secondary" onClick={signOut}>
        Sign out
      </button>
      {open && (
        <form className={`card ${styles.passwordForm}`} onSubmit={changePassword}>
          <label className={styles.field}>
            <span>Current password</span>
            <input name="current" type="password" autoComplete="current-password" required />
          </label>
          <label className={styles.field}>
            <span>New password (12 characters or more, hard to guess)</span>
            <input name="next" type="password" autoComplete="new-password" minLength={12} required />
          </label>
          {message && (
            <p role={message.tone === 'error' ? 'alert' : 'status'} className={styles[message.tone]}>
              {message.text}
            </p>
          )}
          <button type="submit" className="button">
            Save new password
          </button>
        </form>
      )}
    </div>
  )
}
