'use client'

import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react'
import { type FormErrors, focusFirstError, noErrors, splitErrors } from '@/components/form-errors'
import type { SignupOutcome } from '@/contracts/signup'
import { useVisitorData } from '@/sdk/react'

export type Fields = { name: string; email: string; password: string; terms: boolean }
export type FieldName = keyof Fields
const fieldNames: FieldName[] = ['name', 'email', 'password', 'terms']

export type Step =
  | { step: 'form' }
  | { step: 'sending' }
  | { step: 'challenge'; kind: 'proofOfWork' | 'emailCode'; message: string; checking?: boolean }
  | { step: 'created'; name: string; email: string }
  | { step: 'denied'; message: string }

export type DeviceCheck = { state: 'running' | 'ready' | 'failed'; requestId?: string }

/**
 * The sign-up's state and steps: a device check before each attempt (each attempt spends one),
 * the fields checked with the server's own schema, the server's decision, and the puzzle's answer.
 */
export function useSignup() {
  const [fields, setFields] = useState<Fields>({ name: '', email: '', password: '', terms: false })
  const [errors, setErrors] = useState<FormErrors>(noErrors)
  const [step, setStep] = useState<Step>({ step: 'form' })
  const [check, setCheck] = useState<DeviceCheck>({ state: 'running' })
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
    // A code being checked keeps its own screen; a first attempt shows the form sending.
    setStep((current) =>
      current.step === 'challenge' && challenge ? { ...current, checking: true } : { step: 'sending' },
    )
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
    else if (outcome.outcome === 'challenge')
      setStep({ step: 'challenge', kind: outcome.kind, message: outcome.message })
    else setStep({ step: 'denied', message: outcome.message })
  }

  /**
   * One attempt at a time: a second click (a double-click, Enter held) before the first attempt is
   * answered is dropped, not sent with the same device check to be refused as a replay. Set at
   * once, before anything is awaited: the button's disabled state comes a render later.
   */
  const attempting = useRef(false)
  const attempt = useCallback(async (task: () => Promise<void>) => {
    if (attempting.current) return
    attempting.current = true
    try {
      await task()
    } finally {
      attempting.current = false
    }
  }, [])

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    return attempt(async () => {
      // The same schema as the server's, loaded on demand (its password dictionaries are large).
      const { SignupFields } = await import('@/contracts/signup')
      const parsed = SignupFields.safeParse(fields)
      if (!parsed.success) {
        showErrors(splitErrors('Some fields need attention.', parsed.error.issues, fieldNames))
        return
      }
      await send()
    })
  }

  // The puzzle widget keeps the first callback it gets; the ref always calls the latest send.
  const latestSend = useRef(send)
  latestSend.current = send
  const onSolved = useCallback(
    (payload: string) => {
      void attempt(() => latestSend.current(payload))
    },
    [attempt],
  )

  const backToForm = () => setStep({ step: 'form' })
  /** Another attempt without an answer: for the email challenge, a new code is mailed. */
  const newCode = () => attempt(() => send())
  return { fields, errors, step, check, formRef, update, submit, onSolved, newCode, backToForm }
}
