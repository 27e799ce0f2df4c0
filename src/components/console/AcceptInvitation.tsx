'use client'

import { type FormEvent, useEffect, useRef, useState } from 'react'
import { FormField } from '../FormField'
import { type FormErrors, focusFirstError, noErrors } from '../form-errors'
import { ErrorNote } from '../Notes'
import { callConsole, formErrorsOf } from './api'
import styles from './console.module.css'

/** Joining the team from an invitation link: a name and a password, then the console. */
export function AcceptInvitation({ token }: { token: string }) {
  const [errors, setErrors] = useState<FormErrors>(noErrors)
  const [pending, setPending] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  // The link was opened to join: the form is what the page is for, wherever the page puts it.
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus()
  }, [])

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    setPending(true)
    setErrors(noErrors)
    try {
      await callConsole('POST /api/console/invitations/acceptance', {
        body: {
          token,
          username: String(data.get('username') ?? ''),
          password: String(data.get('password') ?? ''),
        },
      })
      // The link is spent: the console's own address, signed in, in place of the link's in the history.
      window.location.replace('/')
    } catch (failure) {
      const found = formErrorsOf(failure, ['username', 'password'], 'You could not join.')
      setErrors(found)
      focusFirstError(form, found.fields)
    } finally {
      setPending(false)
    }
  }

  return (
    <form
      ref={formRef}
      className={`card ${styles.signIn}`}
      onSubmit={submit}
      noValidate
      aria-labelledby="join-heading"
    >
      <h2 id="join-heading">Join the team</h2>
      <p className="muted">
        You were invited to this Tessera console. Choose the name and the password you will sign in with.
      </p>
      <FormField
        label="Username"
        hint="Letters a–z, digits, dots, hyphens and underscores; you sign in with it in any case."
        error={errors.fields.username}
      >
        {(control) => <input {...control} name="username" autoComplete="username" required />}
      </FormField>
      <FormField
        label="Password"
        hint="At least 12 characters, not easy to guess."
        error={errors.fields.password}
      >
        {(control) => (
          <input {...control} name="password" type="password" autoComplete="new-password" required />
        )}
      </FormField>
      {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
      <button type="submit" className="button" disabled={pending}>
        {pending ? 'Joining…' : 'Join'}
      </button>
    </form>
  )
}
