/**
 * Domains whose mail ignores dots in the mailbox name (`g.race@` and `grace@` are one inbox), with
 * the domain their mail lands in.
 */
const DOTS_IGNORED: Readonly<Record<string, string>> = {
  'gmail.com': 'gmail.com',
  'googlemail.com': 'gmail.com',
}

/**
 * The inbox an address delivers to, as far as the accounts-per-device rule is concerned: a
 * `+tag` is dropped (Gmail, Outlook, iCloud, Fastmail and Proton deliver `grace+2@` to `grace@`),
 * and so are dots where the provider ignores them. Only ever compared, never shown or mailed.
 * Kept in step with migration 0025's backfill, which computes the same in SQL.
 */
export function mailboxOf(normalisedEmail: string): string {
  const at = normalisedEmail.lastIndexOf('@')
  const local = normalisedEmail.slice(0, at)
  const domain = normalisedEmail.slice(at + 1)
  const untagged = local.split('+')[0] ?? local
  const dotless = DOTS_IGNORED[domain]
  return dotless ? `${untagged.replaceAll('.', '')}@${dotless}` : `${untagged}@${domain}`
}
