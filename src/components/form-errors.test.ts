import { describe, expect, it } from 'vitest'
import { fieldMessages, splitErrors } from './form-errors'

describe('fieldMessages', () => {
  it('reads a verb’s own { fields }', () => {
    expect(fieldMessages({ fields: { url: 'Use a public address.', other: 3 } })).toEqual({
      url: 'Use a public address.',
    })
  })

  it('reads a failed schema’s issues by the first segment of their path, the first per field', () => {
    const issues = [
      { path: 'allowedOrigins.1', message: 'Not an origin.' },
      { path: 'allowedOrigins.2', message: 'Also not an origin.' },
      { path: 'name', message: 'Give the site a name.' },
      { path: '', message: 'The body is not an object.' },
    ]
    expect(fieldMessages(issues)).toEqual({ allowedOrigins: 'Not an origin.', name: 'Give the site a name.' })
    expect(fieldMessages([{ path: ['maxAttemptsPerIp'], message: 'Too small.' }])).toEqual({
      maxAttemptsPerIp: 'Too small.',
    })
  })

  it('finds nothing in details of another kind', () => {
    expect(fieldMessages(undefined)).toEqual({})
    expect(fieldMessages({ retryAfter: 2 })).toEqual({})
    expect(fieldMessages(['text'])).toEqual({})
  })
})

describe('splitErrors', () => {
  it('puts messages on the form’s fields', () => {
    expect(splitErrors('url: Not public.', { fields: { url: 'Not public.' } }, ['url', 'format'])).toEqual({
      fields: { url: 'Not public.' },
    })
  })

  it('gives the form the message when no field is named, or one the form does not have', () => {
    expect(splitErrors('Wrong username or password.', undefined, ['password'])).toEqual({
      fields: {},
      form: 'Wrong username or password.',
    })
    expect(splitErrors('siteId: Required.', [{ path: 'siteId', message: 'Required.' }], ['name'])).toEqual({
      fields: {},
      form: 'siteId: Required.',
    })
  })
})
