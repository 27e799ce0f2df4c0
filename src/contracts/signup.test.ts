import { describe, expect, it } from 'vitest'
import { fieldErrors } from './field-errors'
import { normaliseEmail, SignupFields } from './signup'

const good = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  password: 'violet-harbour-tandem-42',
  terms: true,
}

describe('SignupFields', () => {
  it('accepts a good sign-up and normalises it', () => {
    const parsed = SignupFields.parse({
      ...good,
      name: '  Ada   Lovelace ',
      email: '  Ada+shop@EXAMPLE.Com ',
    })
    expect(parsed.name).toBe('Ada Lovelace')
    expect(parsed.email).toBe('ada+shop@example.com')
  })

  it('keeps unicode names and plus-addressing', () => {
    const parsed = SignupFields.parse({ ...good, name: 'Zoë Ðặng 李小龍', email: 'zoe+test@bücher.example' })
    expect(parsed.name).toBe('Zoë Ðặng 李小龍')
    expect(parsed.email).toBe('zoe+test@bücher.example')
  })

  const bad: [string, Partial<typeof good> & Record<string, unknown>, string, RegExp][] = [
    ['an empty name', { name: '   ' }, 'name', /Enter your name/],
    ['an overlong name', { name: 'x'.repeat(101) }, 'name', /at most 100/],
    ['an email without @', { email: 'ada.example.com' }, 'email', /email address like/],
    ['an overlong email', { email: `${'a'.repeat(250)}@example.com` }, 'email', /too long/],
    ['a short password', { password: 'Short1!' }, 'password', /at least 12/],
    ['an overlong password', { password: 'x'.repeat(129) }, 'password', /at most 128/],
    ['a common password', { password: 'password1234' }, 'password', /too easy to guess/],
    ['a keyboard walk', { password: 'qwertyuiop12' }, 'password', /too easy to guess/],
    [
      'the name as password',
      { name: 'Ada Lovelace', password: 'AdaLovelace1' },
      'password',
      /too easy to guess/,
    ],
    ['terms not accepted', { terms: false as unknown as true }, 'terms', /Accept the terms/],
  ]
  for (const [label, change, field, message] of bad) {
    it(`refuses ${label}`, () => {
      const result = SignupFields.safeParse({ ...good, ...change })
      expect(result.success).toBe(false)
      if (!result.success) expect(fieldErrors(result.error)[field]).toMatch(message)
    })
  }

  it('trims and lower-cases the whole email address', () => {
    expect(normaliseEmail(' MixedCase@Example.ORG ')).toBe('mixedcase@example.org')
  })

  it('accepts ordinary and international addresses', () => {
    for (const email of [
      'grace.hopper+tessera@example.com',
      'o_k-1%x@mail.example.co.uk',
      'jürgen@müller.de',
    ])
      expect(SignupFields.safeParse({ ...good, email }).success, email).toBe(true)
  })

  it('refuses markup, quotes and spaces in an email address', () => {
    for (const email of [
      '<script>alert(1)</script>@example.com',
      'a<b>@example.com',
      '"quoted"@example.com',
      "o'brien@example.com",
      'two words@example.com',
      'x@exa mple.com',
      'x@example.com<img src=x>',
      'x@[127.0.0.1]',
      'a&b@example.com',
      '.dot@example.com',
      'dot.@example.com',
      'do..t@example.com',
      'x@example',
    ]) {
      const result = SignupFields.safeParse({ ...good, email })
      expect(result.success, email).toBe(false)
      if (!result.success) expect(fieldErrors(result.error).email, email).toMatch(/like name@example.com/)
    }
  })
})
