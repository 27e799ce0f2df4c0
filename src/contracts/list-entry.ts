import { matchingNetwork, normaliseNetwork } from './network-range'

/**
 * One entry of a site's allow or deny list, in the one text it is stored and shown as: an address
 * or CIDR range in normaliseNetwork's form, a visitor ID as it is, an email domain as `@domain`.
 * The three never look alike: networks hold dots or colons and parse as addresses, domains start
 * with `@`, visitor IDs are URL-safe letters and digits only.
 */
export type ListEntryKind = 'network' | 'visitor' | 'emailDomain'

// Tessera's visitor IDs are 20 URL-safe characters (new-id.ts): a shorter word ("mailinator") is a
// typo of a domain, refused rather than stored as an ID that never matches.
const VISITOR_ID = /^[A-Za-z0-9_-]{20}$/
// Labels of letters, digits and inner hyphens; the last one starts with a letter, so "10.0.0" is
// no domain (an address written short is refused rather than read as a name).
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/**
 * The stored form of what an operator typed: `203.0.113.9/24` → `203.0.113.0/24`,
 * `Mailinator.COM`, `@mailinator.com` or `*@mailinator.com` → `@mailinator.com`, a visitor ID as
 * it is; null for anything else.
 */
export function normaliseListEntry(text: string): string | null {
  const value = text.trim()
  // A zone ("fe80::1%eth0") names an interface of one machine, nothing a client's address carries.
  if (value.includes('%')) return null
  const network = normaliseNetwork(value)
  if (network !== null) return network
  if (VISITOR_ID.test(value)) return value
  const domain = emailDomainOf(`x@${value.replace(/^\*?@/, '')}`)
  return domain === null ? null : `@${domain}`
}

/**
 * Why an entry may not be on the allow list, or null when it may: an email domain (anyone can type
 * an address at it), or a range so wide it lets the rules off for a large part of the internet.
 */
export function notAllowable(entry: string): string | null {
  if (listEntryKind(entry) === 'emailDomain')
    return `${entry} cannot be allow-listed: anyone can type an address at a domain. Allow addresses, ranges or visitors.`
  const bits = entry.includes('/') ? Number(entry.split('/')[1]) : null
  const minimum = entry.includes(':') ? 32 : 16
  if (bits !== null && bits < minimum)
    return `${entry} is too wide to allow-list (at most /${minimum}): it would switch the rules off for much of the internet.`
  return null
}

/** The kind of a stored (normalised) entry. */
export function listEntryKind(entry: string): ListEntryKind {
  if (entry.startsWith('@')) return 'emailDomain'
  return entry.includes('.') || entry.includes(':') ? 'network' : 'visitor'
}

/**
 * The domain of an email address, lower-cased and in ASCII (an international name as punycode, as
 * the URL parser writes it), without a trailing dot; null when it is not a domain name.
 */
export function emailDomainOf(email: string): string | null {
  const at = email.lastIndexOf('@')
  if (at < 0) return null
  const written = email.slice(at + 1).replace(/\.$/, '')
  if (written === '' || /[\s/\\?#@:%[\]]/.test(written)) return null
  let host: string
  try {
    host = new URL(`http://${written}`).hostname
  } catch {
    return null
  }
  return DOMAIN.test(host) ? host : null
}

/** What a sign-up is checked against a list by. */
export interface ListSubject {
  visitorId: string | null
  ip: string | null
  email: string
}

/**
 * The first entry of `list` the subject matches: its visitor ID, its address inside a range, or its
 * email's domain or a parent of it (`@example.com` holds `ann@mail.example.com`); null for none.
 */
export function matchingListEntry(list: readonly string[], subject: ListSubject): string | null {
  const network = subject.ip ? matchingNetwork(subject.ip, list) : null
  if (network) return network
  const domain = emailDomainOf(subject.email)
  for (const entry of list) {
    const kind = listEntryKind(entry)
    if (kind === 'visitor' && entry === subject.visitorId) return entry
    if (kind === 'emailDomain' && domain !== null) {
      const listed = entry.slice(1)
      if (domain === listed || domain.endsWith(`.${listed}`)) return entry
    }
  }
  return null
}

/** An entry in words, for a rule's reason: "the address range 203.0.113.0/24", "the email domain @x.example". */
export function describeListEntry(entry: string): string {
  const kind = listEntryKind(entry)
  if (kind === 'emailDomain') return `the email domain ${entry}`
  if (kind === 'visitor') return `the visitor ${entry}`
  return entry.includes('/') ? `the address range ${entry}` : `the address ${entry}`
}
