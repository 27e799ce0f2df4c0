'use client'

import { type FormEvent, useState } from 'react'
import { type FormErrors, focusFirstError, noErrors } from '../form-errors'
import { formErrorsOf } from './api'

/**
 * A console form's submit: clears its messages, runs the call, and on failure puts the server's
 * messages on the form's own fields (focusing the first) or, naming none of them, on the form.
 */
export function useFormAction(fieldNames: readonly string[], fallback: string) {
  const [errors, setErrors] = useState<FormErrors>(noErrors)

  async function submit(
    event: FormEvent<HTMLFormElement>,
    action: (data: FormData, form: HTMLFormElement) => Promise<unknown>,
  ): Promise<boolean> {
    event.preventDefault()
    const form = event.currentTarget
    setErrors(noErrors)
    try {
      await action(new FormData(form), form)
      return true
    } catch (failure) {
      const found = formErrorsOf(failure, fieldNames, fallback)
      setErrors(found)
      focusFirstError(form, found.fields)
      return false
    }
  }

  return { errors, submit }
}
