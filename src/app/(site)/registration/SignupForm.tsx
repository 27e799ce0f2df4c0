'use client'

import { type FormEvent, type RefObject, useRef, useState } from 'react'
import { FormField } from '@/components/FormField'
import type { FormErrors } from '@/components/form-errors'
import { ErrorNote } from '@/components/Notes'
import { ProofOfWork } from '@/components/ProofOfWork'
import styles from './SignupForm.module.css'
import { Terms } from './Terms'
import { type DeviceCheck, type FieldName, type Fields, type Step, useSignup } from './useSignup'

/**
 * The protected sign-up: the device check runs first, then the form is decided by the server.
 * `retentionDays`: how long this server keeps identification data (its terms say so).
 */
export function SignupForm({ retentionDays }: { retentionDays: number }) {
  const signup = useSignup()
  const { step } = signup
  // Set by "Back to the form": the form's heading takes the focus when it is shown again (not on
  // the page's first view, where the visitor starts from the top).
  const cameBack = useRef(false)
  return (
    <div className={`container ${styles.page}`}>
      <section className={`card ${styles.formCard}`} aria-labelledby="signup-heading">
        {step.step === 'form' || step.step === 'sending' ? (
          <>
            <h1
              id="signup-heading"
              tabIndex={-1}
              ref={(heading) => {
                if (heading && cameBack.current) {
                  cameBack.current = false
                  heading.focus()
                }
              }}
            >
              Create your account
            </h1>
            <p className="muted">A real sign-up, protected by Tessera&rsquo;s device intelligence.</p>
            <SignupFields
              fields={signup.fields}
              errors={signup.errors}
              sending={step.step === 'sending'}
              formRef={signup.formRef}
              update={signup.update}
              submit={signup.submit}
              retentionDays={retentionDays}
            />
          </>
        ) : (
          <SignupOutcome
            step={step}
            onSolved={signup.onSolved}
            newCode={signup.newCode}
            backToForm={() => {
              cameBack.current = true
              signup.backToForm()
            }}
          />
        )}
      </section>
      <Protection check={signup.check} />
    </div>
  )
}

/** Focuses a heading as it is shown: what the server decided replaced the form the focus was in. */
const focusOnShow = (heading: HTMLHeadingElement | null) => heading?.focus()

/** What the server decided: welcome, refused, or one more step (a puzzle, or a code mailed to the address). */
function SignupOutcome({
  step,
  onSolved,
  newCode,
  backToForm,
}: {
  step: Exclude<Step, { step: 'form' } | { step: 'sending' }>
  onSolved: (payload: string) => void
  newCode: () => void
  backToForm: () => void
}) {
  if (step.step === 'created')
    return (
      <div role="status" className={styles.outcome}>
        <p className={styles.icon} aria-hidden="true">
          ✓
        </p>
        <h1 id="signup-heading" tabIndex={-1} ref={focusOnShow}>
          Welcome, {step.name}!
        </h1>
        {/* The same words whether or not the address already had an account: the answer must not
            tell anyone which addresses are registered (SECURITY.md, "Sign-up enumeration"). */}
        <p className="muted">
          Your sign-up for <strong>{step.email}</strong> is complete. If this address already had an account,
          nothing was changed: its password is still the one chosen then.
        </p>
        <a className="button" href="/device-fingerprint">
          See your device
        </a>
      </div>
    )
  if (step.step === 'denied')
    return (
      <div role="alert" className={styles.outcome}>
        <h1 id="signup-heading" tabIndex={-1} ref={focusOnShow}>
          We could not create your account
        </h1>
        <p>{step.message}</p>
        <button type="button" className="button button-secondary" onClick={backToForm}>
          Back to the form
        </button>
      </div>
    )
  return (
    <div className={styles.outcome}>
      {/* A mailed code's field takes the focus itself (autoFocus); a puzzle has none to take. */}
      <h1 id="signup-heading" tabIndex={-1} ref={step.kind === 'emailCode' ? undefined : focusOnShow}>
        One more step
      </h1>
      <p role="status">{step.message}</p>
      {step.kind === 'emailCode' ? (
        <EmailCodeForm checking={step.checking === true} onCode={onSolved} newCode={newCode} />
      ) : (
        <ProofOfWork onSolved={onSolved} />
      )}
    </div>
  )
}

/** The code mailed to the address: six digits, pasted or typed (the phone's keyboard offers it). */
function EmailCodeForm({
  checking,
  onCode,
  newCode,
}: {
  checking: boolean
  onCode: (code: string) => void
  newCode: () => void
}) {
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | undefined>()
  return (
    <form
      className={styles.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        const digits = code.replace(/\s/g, '')
        if (!/^\d{6}$/.test(digits)) {
          setError('Enter the 6 digits from the mail.')
          return
        }
        setError(undefined)
        onCode(digits)
      }}
    >
      <FormField label="Code from the mail" error={error}>
        {(control) => (
          <input
            {...control}
            // biome-ignore lint/a11y/noAutofocus: the one field of this step, just announced above.
            autoFocus
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={12}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        )}
      </FormField>
      <div className={styles.passwordRow}>
        <button type="submit" className="button" disabled={checking}>
          {checking ? 'Checking…' : 'Confirm'}
        </button>
        <button type="button" className="button button-secondary" disabled={checking} onClick={newCode}>
          Send a new code
        </button>
      </div>
    </form>
  )
}

/** The form's fields, each with its label, hint and error. */
function SignupFields({
  fields,
  errors,
  sending,
  formRef,
  update,
  submit,
  retentionDays,
}: {
  fields: Fields
  errors: FormErrors
  sending: boolean
  formRef: RefObject<HTMLFormElement | null>
  update: <Name extends FieldName>(name: Name, value: Fields[Name]) => void
  submit: (event: FormEvent<HTMLFormElement>) => Promise<void>
  retentionDays: number
}) {
  const [showPassword, setShowPassword] = useState(false)
  return (
    <form ref={formRef} className={styles.form} onSubmit={submit} noValidate>
      <FormField label="Full name" error={errors.fields.name}>
        {(control) => (
          <input
            {...control}
            name="name"
            autoComplete="name"
            value={fields.name}
            onChange={(event) => update('name', event.target.value)}
          />
        )}
      </FormField>
      <FormField label="Email" error={errors.fields.email}>
        {(control) => (
          <input
            {...control}
            name="email"
            type="email"
            autoComplete="email"
            value={fields.email}
            onChange={(event) => update('email', event.target.value)}
          />
        )}
      </FormField>
      <FormField
        label="Password"
        hint="12 to 128 characters; avoid common or easily guessed passwords."
        error={errors.fields.password}
      >
        {(control) => (
          <div className={styles.passwordRow}>
            <input
              {...control}
              name="password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="new-password"
              value={fields.password}
              onChange={(event) => update('password', event.target.value)}
            />
            <button
              type="button"
              className="button button-secondary"
              aria-pressed={showPassword}
              aria-controls={control.id}
              onClick={() => setShowPassword((shown) => !shown)}
            >
              {showPassword ? 'Hide' : 'Show'}
            </button>
          </div>
        )}
      </FormField>
      <Terms retentionDays={retentionDays} />
      <FormField label="I accept the terms of service" layout="check" error={errors.fields.terms}>
        {(control) => (
          <input
            {...control}
            name="terms"
            type="checkbox"
            checked={fields.terms}
            onChange={(event) => update('terms', event.target.checked)}
          />
        )}
      </FormField>
      {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
      <button type="submit" className="button" disabled={sending}>
        {sending ? 'Creating your account…' : 'Create account'}
      </button>
    </form>
  )
}

/** How the sign-up is protected, with the device check's progress. */
function Protection({ check }: { check: DeviceCheck }) {
  return (
    <aside className={styles.aside} aria-labelledby="protection-heading">
      <h2 id="protection-heading">How this sign-up is protected</h2>
      <p className={styles.check} role="status" data-testid="device-check">
        Device check:{' '}
        {check.state === 'running'
          ? 'running…'
          : check.state === 'ready'
            ? 'done'
            : 'could not run in this browser'}
      </p>
      <ol>
        <li>Your browser runs Tessera&rsquo;s agent and gets a one-time request ID.</li>
        <li>The server looks that request up itself — it never trusts an ID sent by the browser.</li>
        <li>
          The sign-up is allowed, asked for one more step (a short puzzle your browser solves, or a code
          mailed to you), or refused, and the reasons are recorded for the operator.
        </li>
      </ol>
      <p className="muted">
        Curious what your browser reveals? <a href="/device-fingerprint">Inspect your device</a>.
      </p>
    </aside>
  )
}
