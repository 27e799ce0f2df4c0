import { describe, expect, it } from 'vitest'
import { SiteListsInput } from './console'
import {
  describeListEntry,
  emailDomainOf,
  listEntryKind,
  matchingListEntry,
  normaliseListEntry,
} from './list-entry'
import { matchingNetwork } from './network-range'

describe('normaliseListEntry', () => {
  it.each([
    ['203.0.113.9/24', '203.0.113.0/24', 'network'],
    [' 2001:DB8::1 ', '2001:db8::1', 'network'],
    ['Mailinator.COM', '@mailinator.com', 'emailDomain'],
    ['@mailinator.com', '@mailinator.com', 'emailDomain'],
    ['*@mail.example.org.', '@mail.example.org', 'emailDomain'],
    ['bücher.example', '@xn--bcher-kva.example', 'emailDomain'],
    ['Q2x7_-abcdefghijklmn', 'Q2x7_-abcdefghijklmn', 'visitor'],
    ['12345678901234567890', '12345678901234567890', 'visitor'],
  ])('reads %j as %j (%s)', (typed, stored, kind) => {
    expect(normaliseListEntry(typed)).toBe(stored)
    expect(listEntryKind(stored)).toBe(kind)
  })

  it.each([
    '',
    'shop',
    '10.0.0',
    '1.2.3.4/33',
    'a@b@c',
    'http://x.example/',
    'ex ample.com',
    'short',
    // A domain's typo is refused, not stored as a visitor ID that never matches.
    'mailinator',
    'fe80::1%eth0',
  ])('refuses %j', (typed) => expect(normaliseListEntry(typed)).toBeNull())
})

describe('matchingListEntry', () => {
  const list = ['203.0.113.0/24', '@mailinator.com', 'Q2x7_-abcdefghijklmn', '12345678901234567890']
  const subject = { visitorId: 'someone-else-entirely', ip: '198.51.100.1', email: 'ann@example.com' }

  it('matches by address range, by visitor and by email domain or a subdomain of it', () => {
    expect(matchingListEntry(list, { ...subject, ip: '203.0.113.77' })).toBe('203.0.113.0/24')
    expect(matchingListEntry(list, { ...subject, visitorId: 'Q2x7_-abcdefghijklmn' })).toBe(
      'Q2x7_-abcdefghijklmn',
    )
    expect(matchingListEntry(list, { ...subject, email: 'x@MAILINATOR.com' })).toBe('@mailinator.com')
    expect(matchingListEntry(list, { ...subject, email: 'x@eu.mailinator.com' })).toBe('@mailinator.com')
    expect(matchingListEntry(list, subject)).toBeNull()
  })

  it('does not take a look-alike domain for a listed one', () => {
    expect(matchingListEntry(list, { ...subject, email: 'x@notmailinator.com' })).toBeNull()
    expect(matchingListEntry(list, { ...subject, email: 'x@mailinator.com.evil.example' })).toBeNull()
  })

  it('never reads a visitor ID of digits as the address it would parse as', () => {
    // ipaddr.js reads "12345678" as 0.188.97.78; a list entry is an address only as written.
    expect(matchingNetwork('0.188.97.78', ['12345678'])).toBeNull()
    const digits = '12345678901234567890'
    expect(matchingListEntry([digits], { ...subject, ip: '0.188.97.78' })).toBeNull()
    expect(matchingListEntry([digits], { ...subject, visitorId: digits })).toBe(digits)
  })

  it('reads an email domain as the URL parser does', () => {
    expect(emailDomainOf('Ann@Example.COM')).toBe('example.com')
    expect(emailDomainOf('ann@bücher.example')).toBe('xn--bcher-kva.example')
    expect(emailDomainOf('no-at-sign')).toBeNull()
    expect(describeListEntry('203.0.113.7')).toBe('the address 203.0.113.7')
  })
})

describe('SiteListsInput', () => {
  it('normalises and de-duplicates every entry, and names the one that does not parse', () => {
    expect(
      SiteListsInput.parse({ deny: ['203.0.113.9/24', '203.0.113.0/24', 'Spam.example'], allow: [] }),
    ).toEqual({ deny: ['203.0.113.0/24', '@spam.example'], allow: [] })
    const refused = SiteListsInput.safeParse({ deny: ['203.0.113.0/24', 'not an entry'], allow: [] })
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['deny', 1],
      message: expect.stringMatching(/not an entry.*is not an IP address/),
    })
  })

  it('refuses email domains and very wide ranges on the allow list, naming the entry', () => {
    const refused = SiteListsInput.safeParse({
      deny: ['0.0.0.0/0'],
      allow: ['@company.example', '10.0.0.0/8', '2001:db8::/16', '198.51.100.0/16'],
    })
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['allow.0', expect.stringMatching(/^@company.example cannot be allow-listed/)],
      ['allow.1', expect.stringMatching(/^10.0.0.0\/8 is too wide/)],
      ['allow.2', expect.stringMatching(/^2001::\/16 is too wide/)],
    ])
  })

  it('refuses an entry on both lists, naming it', () => {
    const refused = SiteListsInput.safeParse({ deny: ['203.0.113.9'], allow: [' 203.0.113.9 '] })
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['allow'],
      message: '203.0.113.9 is on the deny list too: keep it on one list.',
    })
  })
})
