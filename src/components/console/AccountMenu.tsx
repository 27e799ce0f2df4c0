'use client'

import { useRouter } from 'next/navigation'
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { FormField } from '../FormField'
import { ErrorNote, SuccessNote } from '../Notes'
import { callConsole } from './api'
import styles from './console.module.css'
import { PasswordPuzzle, usePasswordPuzzle } from './PasswordPuzzle'
import { useFormAction } from './useFormAction'

/** Signed-in operator: change password (not for one who signs in through the provider), sign out. */
export function AccountMenu({ username, singleSignOn }: { username: string; singleSignOn: boolean }) {
  const router = useRouter()
  const [open, setOpen] = useState(false)
  const { errors, submit } = useFormAction(
    ['currentPassword', 'newPassword'],
    'Could not change the password.',
  )
  const [changed, setChanged] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const form = useRef<HTMLFormElement>(null)

  // Opening moves focus into the form; Esc closes it and gives focus back to its button.
  useEffect(() => {
    if (open) form.current?.querySelector('input')?.focus()
  }, [open])

  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !open) return
    event.stopPropagation()
    setOpen(false)
    toggle.current?.focus()
  }
  // Wrong current passwords are throttled as sign-ins are: past a few, a puzzle goes with each try.
  const { puzzle, solution, onSolved, afterFailure, challenged, waiting } = usePasswordPuzzle()

  async function signOut() {
    await callConsole('DELETE /api/console/session')
    router.refresh()
  }

  async function changePassword(event: FormEvent<HTMLFormElement>) {
    setChanged(false)
    const ok = await submit(event, async (data, form) => {
      try {
        await callConsole('POST /api/console/password', {
          body: {
            currentPassword: String(data.get('currentPassword') ?? ''),
            newPassword: String(data.get('newPassword') ?? ''),
            ...(solution ? { challenge: solution } : {}),
          },
        })
      } catch (failure) {
        afterFailure(failure)
        throw failure
      }
      form.reset()
    })
    setChanged(ok)
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Esc anywhere in the menu closes its form
    <div className={styles.account} onKeyDown={closeOnEscape}>
      <span className="muted">
        Signed in as <strong>{username}</strong>
      </span>
      {!singleSignOn && (
        <button
          ref={toggle}
          type="button"
          className="button button-secondary"
          aria-expanded={open}
          aria-controls="change-password"
          onClick={() => setOpen(!open)}
        >
          Change password
        </button>
      )}
      <button type="button" className="button button-secondary" onClick={signOut}>
        Sign out
      </button>
      {open && (
        <form
          ref={form}
          id="change-password"
          aria-label="Change password"
          className={`card ${styles.passwordForm}`}
          onSubmit={changePassword}
          noValidate
        >
          <FormField label="Current password" error={errors.fields.currentPassword}>
            {(control) => (
              <input
                {...control}
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                required
              />
            )}
          </FormField>
          <FormField
            label="New password"
            hint="12 characters or more, hard to guess."
            error={errors.fields.newPassword}
          >
            {(control) => (
              <input
                {...control}
                name="newPassword"
                type="password"
                autoComplete="new-password"
                minLength={12}
                required
              />
            )}
          </FormField>
          {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
          {challenged && (
            <PasswordPuzzle
              puzzle={puzzle}
              username={username}
              onSolved={onSolved}
              solvedText="Puzzle solved. You can try again."
            />
          )}
          {changed && <SuccessNote>Password changed. Every other session is signed out.</SuccessNote>}
          <button type="submit" className="button" disabled={waiting}>
            Save new password
          </button>
        </form>
      )}
    </div>
  )
}
