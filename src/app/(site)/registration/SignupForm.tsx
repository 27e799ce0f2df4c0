'use client'

import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react'
import { FormField } from '@/components/FormField'
import { type FormErrors, focusFirstError, noErrors, splitErrors } from '@/components/form-errors'
import { ErrorNote } from '@/components/Notes'
import { ProofOfWork } from '@/components/ProofOfWork'
import type { SignupOutcome } from '@/contracts/signup'
import { useVisitorData } from '@/sdk/react'
import styles from './SignupForm.module.css'

type Fields = { name: string; email: string; password: string; terms: boolean }
type FieldName = keyof Fields
const fieldNames: FieldName[] = ['name', 'email', 'password', 'terms']

type Step =
  | { step: 'form' }
  | { step: 'sending' }
  | { step: 'challenge'; message: string }
  | { step: 'created'; name: string; email: string }
  | { step: 'denied'; message: string }

/** The protected sign-up: the device check runs first, then the form is decided by the server. */
export function SignupForm() {
  const [fields, setFields] = useState<Fields>({ name: '', email: '', password: '', terms: false })
  const [errors, setErrors] = useState<FormErrors>(noErrors)
  const [showPassword, setShowPassword] = useState(false)
  const [step, setStep] = useState<Step>({ step: 'form' })
  const [check, setCheck] = useState<{ state: 'running' | 'ready' | 'failed'; requestId?: string }>({
    state: 'running',
  })
  const formRef = useRef<HTMLFormElement>(null)
  const { getData } = useVisitorData({ immediate: false })

  // Each sign-up attempt spends one device check; a fresh one is made after every attempt.
  const runCheck = useCallback(async () => {
    setCheck({ state: 'running' })
    try {
      // Never a cached answer: each check's request ID is spent by one sign-up attempt.
      const result = await getData({ ignoreCache: true })
      setCheck({ state: 'ready', requestId: result.requestId })
      return result.requestId
    } catch {
      setCheck({ state: 'failed' })
      return undefined
    }
  }, [getData])

  useEffect(() => {
    void runCheck()
  }, [runCheck])

  const update = <Name extends FieldName>(name: Name, value: Fields[Name]) => {
    setFields((previous) => ({ ...previous, [name]: value }))
    setErrors((previous) => ({ ...previous, fields: { ...previous.fields, [name]: undefined } }))
  }

  function showErrors(found: FormErrors) {
    setErrors(found)
    focusFirstError(formRef.current, found.fields)
  }

  async function send(challenge?: string) {
    const requestId = check.requestId ?? (await runCheck())
    if (!requestId) {
      setErrors({
        fields: {},
        form: 'The device check could not run in this browser. Reload the page and try again.',
      })
      setStep({ step: 'form' })
      return
    }
    setStep({ step: 'sending' })
    const response = await fetch('/api/registration', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fields, requestId, challenge }),
    }).catch(() => undefined)
    const body = await response?.json().catch(() => undefined)
    // The device check is spent whatever happened; prepare the next one.
    void runCheck()
    if (!response) {
      setErrors({ fields: {}, form: 'The server could not be reached. Check your connection and try again.' })
      setStep({ step: 'form' })
      return
    }
    if (!response.ok) {
      setStep({ step: 'form' })
      showErrors(splitErrors(body?.error?.message ?? 'Sign-up failed.', body?.error?.details, fieldNames))
      return
    }
    const outcome = body as SignupOutcome
    if (outcome.outcome === 'allow')
      setStep({ step: 'created', name: outcome.name, email: fields.email.trim() })
    else if (outcome.outcome === 'challenge') setStep({ step: 'challenge', message: outcome.message })
    else setStep({ step: 'denied', message: outcome.message })
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    // The same schema as the server's, loaded on demand (its password dictionaries are large).
    const { SignupFields } = await import('@/contracts/signup')
    const parsed = SignupFields.safeParse(fields)
    if (!parsed.success) {
      showErrors(splitErrors('Some fields need attention.', parsed.error.issues, fieldNames))
      return
    }
    await send()
  }

  // The widget keeps the first callback it gets; the ref always calls the latest send.
  const latestSend = useRef(send)
  latestSend.current = send
  const onSolved = useCallback((payload: string) => {
    void latestSend.current(payload)
  }, [])

  return (
    <div className={`container ${styles.page}`}>
      <section className={`card ${styles.formCard}`} aria-labelledby="signup-heading">
        {step.step === 'created' ? (
          <div role="status" className={styles.outcome}>
            <p className={styles.icon} aria-hidden="true">
              ✓
            </p>
            <h1 id="signup-heading">Welcome, {step.name}!</h1>
            {/* The same words whether or not the address already had an account: the answer must not
                tell anyone which addresses are registered (SECURITY.md, "Sign-up enumeration"). */}
            <p className="muted">
              Your sign-up for <strong>{step.email}</strong> is complete and you can sign in with it. If this
              address already had an account, nothing was changed: sign in with the password you chose then.
            </p>
            <a className="button" href="/device-fingerprint">
              See your device
            </a>
          </div>
        ) : step.step === 'denied' ? (
          <div role="alert" className={styles.outcome}>
            <h1 id="signup-heading">We could not create your account</h1>
            <p>{step.message}</p>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => setStep({ step: 'form' })}
            >
              Back to the form
            </button>
          </div>
        ) : step.step === 'challenge' ? (
          <div className={styles.outcome}>
            <h1 id="signup-heading">One more step</h1>
            <p>{step.message}</p>
            <ProofOfWork onSolved={onSolved} />
          </div>
        ) : (
          <>
            <h1 id="signup-heading">Create your account</h1>
            <p className="muted">A real sign-up, protected by Tessera&rsquo;s device intelligence.</p>
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
              <button type="submit" className="button" disabled={step.step === 'sending'}>
                {step.step === 'sending' ? 'Creating your account…' : 'Create account'}
              </button>
            </form>
          </>
        )}
      </section>

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
