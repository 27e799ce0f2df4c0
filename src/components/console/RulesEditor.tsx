'use client'

import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react'
import type { PolicyChange, PolicyPreview } from '@/contracts/console'
import { type RuleOutcome, SignupPolicy } from '@/contracts/signup-policy'
import { FormField } from '../FormField'
import { type FormErrors, focusFirstError, noErrors, splitErrors } from '../form-errors'
import { formatCount } from '../format'
import { LoadedView } from '../LoadedView'
import { EmptyNote, ErrorNote, SuccessNote } from '../Notes'
import { Time } from '../Time'
import { useLoaded } from '../useLoaded'
import { callConsole, formErrorsOf } from './api'
import styles from './console.module.css'

const rules: {
  key: keyof SignupPolicy
  title: string
  help: string
  threshold?: { key: keyof SignupPolicy; label: string }
}[] = [
  { key: 'botRule', title: 'Bots', help: 'An automated browser was detected.' },
  {
    key: 'accountLimitRule',
    title: 'Accounts per device',
    help: 'One device already created as many accounts in 24 hours as are allowed.',
    threshold: { key: 'maxAccountsPerVisitor', label: 'Accounts allowed per 24 h' },
  },
  {
    key: 'agentProofRule',
    title: 'Agent proof',
    help: 'The identification carried no fresh nonce from this server: the agent did not run.',
  },
  { key: 'tamperingRule', title: 'Tampering', help: 'The browser hides or fakes what it is.' },
  {
    key: 'visitorAttemptsRule',
    title: 'Attempts per device',
    help: 'More sign-up attempts from one device in 10 minutes than are allowed.',
    threshold: { key: 'maxAttemptsPerVisitor', label: 'Attempts allowed per 10 min' },
  },
  {
    key: 'ipAttemptsRule',
    title: 'Attempts per IP',
    help: 'More sign-up attempts from one IP address in 10 minutes than are allowed.',
    threshold: { key: 'maxAttemptsPerIp', label: 'Attempts allowed per 10 min' },
  },
  {
    key: 'addressVisitorsRule',
    title: 'Visitors per address',
    help: 'More different devices from one address in the last hour than are allowed. Offices and mobile networks put many behind one.',
    threshold: { key: 'maxVisitorsPerAddress', label: 'Visitors allowed per hour' },
  },
  {
    key: 'ipBlocklistRule',
    title: 'Deny list',
    help: "The address, the device or the email's domain is on the site's deny list (Sites, below).",
  },
  {
    key: 'fraudLabelRule',
    title: 'Labelled fraud',
    help: 'An analyst labelled the device as fraud (the visitor panel or the review queue).',
  },
  {
    key: 'datacenterRule',
    title: 'Data centres',
    help: 'The address belongs to a cloud or hosting network, where people rarely browse from.',
  },
  {
    key: 'vpnRule',
    title: 'VPNs',
    help: 'A VPN was detected (medium or high confidence). Many honest people use one.',
  },
  { key: 'proxyRule', title: 'Proxies', help: 'A proxy you do not trust forwarded the request.' },
  { key: 'torRule', title: 'Tor', help: 'The address is a Tor exit relay (needs TESSERA_TOR_EXIT_LIST).' },
  {
    key: 'suspectScoreRule',
    title: 'Suspect score',
    help: 'The weighted smart signals add up to this score.',
    threshold: { key: 'suspectScoreThreshold', label: 'Score at or above' },
  },
]

const policyFields = Object.keys(SignupPolicy.shape)

/** The sign-up rules: what each does and its threshold, validated, with who changed what. */
export function RulesEditor({
  readOnly = false,
  site,
  siteName,
}: {
  readOnly?: boolean
  /** The console's site: its own rules, or the default ones it inherits (null: the default rules). */
  site: string | null
  siteName: string | null
}) {
  const query = site ? { site } : {}
  const load = useCallback(
    () => callConsole('GET /api/console/rules', { query: site ? { site } : {} }),
    [site],
  )
  const { loaded, reload } = useLoaded(load)
  const [inheritError, setInheritError] = useState<string | null>(null)

  async function setOwnRules(own: boolean, policy: SignupPolicy) {
    setInheritError(null)
    setSaved(false)
    setPreview(null)
    try {
      if (own) await callConsole('PUT /api/console/rules', { query, body: policy })
      else await callConsole('DELETE /api/console/rules', { query })
      await reload()
    } catch (failure) {
      setInheritError(failure instanceof Error ? failure.message : 'That did not work.')
    }
  }
  const [errors, setErrors] = useState<FormErrors>(noErrors)
  const [saved, setSaved] = useState(false)
  const challengeHintId = useId()
  const [preview, setPreview] = useState<PolicyPreview | 'loading' | null>(null)

  function showErrors(form: HTMLFormElement, found: FormErrors) {
    setErrors(found)
    focusFirstError(form, found.fields)
  }

  /** The rules as edited, checked; undefined (errors shown) when a value is not valid. */
  function candidateOf(form: HTMLFormElement): SignupPolicy | undefined {
    const data = new FormData(form)
    const candidate = Object.fromEntries(
      Object.keys(SignupPolicy.shape).map((key) => {
        const value = String(data.get(key) ?? '')
        return [key, key.endsWith('Rule') || key === 'challengeKind' ? value : Number(value)]
      }),
    )
    const parsed = SignupPolicy.safeParse(candidate)
    if (parsed.success) return parsed.data
    showErrors(
      form,
      splitErrors('Check the rules: some values are not valid.', parsed.error.issues, policyFields),
    )
    return undefined
  }

  async function previewChange(form: HTMLFormElement | null) {
    if (!form) return
    setSaved(false)
    const candidate = candidateOf(form)
    if (!candidate) return
    setErrors(noErrors)
    setPreview('loading')
    try {
      setPreview(await callConsole('POST /api/console/rules/preview', { query, body: candidate }))
    } catch (failure) {
      setPreview(null)
      showErrors(form, formErrorsOf(failure, policyFields, 'The change could not be tried.'))
    }
  }

  /** Whether focus was in the form when it was saved, to put it back on Save in the new one. */
  const saveFocused = useRef(false)
  const saveButton = useRef<HTMLButtonElement>(null)
  // The form is made anew with the saved rules (its key): focus stays on Save, not lost.
  useEffect(() => {
    if (loaded.state !== 'ready' || loaded.refreshing || !saveFocused.current) return
    saveFocused.current = false
    saveButton.current?.focus()
  }, [loaded])
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    setSaved(false)
    setPreview(null)
    const candidate = candidateOf(form)
    if (!candidate) return
    try {
      await callConsole('PUT /api/console/rules', { query, body: candidate })
      setErrors(noErrors)
      setSaved(true)
      saveFocused.current = form.contains(document.activeElement)
      await reload()
    } catch (failure) {
      showErrors(form, formErrorsOf(failure, policyFields, 'The rules were not saved.'))
    }
  }

  return (
    <section aria-labelledby="rules-heading" className={styles.section}>
      <h2 id="rules-heading">Sign-up rules</h2>
      <p className="muted">
        {site
          ? `The rules of ${siteName ?? 'this site'}: its own, or the default rules it inherits.`
          : 'The default rules: every site without rules of its own follows them.'}
      </p>
      <p className="muted">
        Every rule that fires is a reason; the strictest outcome wins. A solved challenge satisfies
        “challenge”, never “deny”.
      </p>
      <LoadedView loaded={loaded} loading="Loading rules…">
        {({ policy, audit, inherited }) => (
          <>
            {site && (
              <div className={`${styles.row} ${styles.inherit}`}>
                <p>
                  {inherited
                    ? `${siteName ?? 'This site'} follows the default rules.`
                    : `${siteName ?? 'This site'} has rules of its own.`}
                </p>
                {!readOnly && (
                  <button
                    type="button"
                    className="button button-secondary"
                    onClick={() => void setOwnRules(inherited, policy)}
                  >
                    {inherited ? 'Give this site its own rules' : 'Go back to the default rules'}
                  </button>
                )}
                {inheritError && <ErrorNote>{inheritError}</ErrorNote>}
              </div>
            )}
            <form
              className={`card ${styles.stack} ${styles.rulesForm}`}
              onSubmit={save}
              noValidate
              key={JSON.stringify(policy)}
            >
              {readOnly && <p className="muted">Your role reads the rules; an admin changes them.</p>}
              <fieldset className={styles.rules} disabled={readOnly || (site !== null && inherited)}>
                <legend className="visually-hidden">The rules</legend>
                {rules.map(({ threshold, ...rule }) => (
                  <fieldset key={rule.key} className={styles.rule}>
                    <legend>{rule.title}</legend>
                    <p className="muted">{rule.help}</p>
                    <div className={styles.ruleFields}>
                      <FormField label="Outcome" error={errors.fields[rule.key]}>
                        {(control) => (
                          <select {...control} name={rule.key} defaultValue={String(policy[rule.key])}>
                            {(['deny', 'challenge', 'off'] as RuleOutcome[]).map((outcome) => (
                              <option key={outcome} value={outcome}>
                                {outcome === 'off' ? 'off (ignore)' : outcome}
                              </option>
                            ))}
                          </select>
                        )}
                      </FormField>
                      {threshold && (
                        <FormField label={threshold.label} error={errors.fields[threshold.key]}>
                          {(control) => (
                            <input
                              {...control}
                              name={threshold.key}
                              type="number"
                              min={1}
                              required
                              defaultValue={Number(policy[threshold.key])}
                            />
                          )}
                        </FormField>
                      )}
                    </div>
                  </fieldset>
                ))}
                <fieldset className={styles.rule}>
                  <legend>Challenge</legend>
                  <p className="muted" id={challengeHintId}>
                    What a challenged sign-up must pass before its account is made. A code by email needs
                    TESSERA_SMTP_URL.
                  </p>
                  <FormField
                    label="Ask for"
                    error={errors.fields.challengeKind}
                    describedBy={challengeHintId}
                  >
                    {(control) => (
                      <select {...control} name="challengeKind" defaultValue={policy.challengeKind}>
                        <option value="proofOfWork">A browser puzzle (proof of work)</option>
                        <option value="emailCode">A code by email</option>
                      </select>
                    )}
                  </FormField>
                </fieldset>
              </fieldset>
              {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
              {saved && <SuccessNote>Rules saved. The next sign-up uses them.</SuccessNote>}
              <PreviewResult preview={preview} />
              {!readOnly && !(site !== null && inherited) && (
                <div className={styles.row}>
                  <button
                    type="button"
                    className="button button-secondary"
                    onClick={(event) => void previewChange(event.currentTarget.form)}
                  >
                    Try on the last 7 days
                  </button>
                  <button type="submit" className="button" ref={saveButton}>
                    Save rules
                  </button>
                </div>
              )}
            </form>
            <h3>Changes</h3>
            {audit.length === 0 ? (
              <EmptyNote>The rules still have their defaults; changes are listed here.</EmptyNote>
            ) : (
              <ul className={styles.list}>
                {audit.map((entry) => (
                  <li key={entry.changedAt}>
                    <span>
                      <strong>{entry.operator}</strong> · <Time iso={entry.changedAt} />:{' '}
                      {describeChange(entry)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </LoadedView>
    </section>
  )
}

/** Each field of the policy in the form's own words ("Accounts per device, accounts allowed per 24 h"). */
const fieldWords: Partial<Record<keyof SignupPolicy, string>> = Object.fromEntries(
  rules.flatMap(({ key, title, threshold }) => [
    [key, title],
    ...(threshold ? [[threshold.key, `${title}, ${threshold.label.toLowerCase()}`]] : []),
  ]),
)
fieldWords.challengeKind = 'Challenge'
const valueWords: Record<string, string> = {
  off: 'off',
  deny: 'deny',
  challenge: 'challenge',
  proofOfWork: 'a puzzle',
  emailCode: 'a code by email',
}

/** A change to the rules as the form words it: "Bots: deny → challenge". */
function describeChange(entry: PolicyChange): string {
  const before: Partial<SignupPolicy> = entry.before ?? {}
  const words = (value: unknown) => (value === undefined ? '—' : (valueWords[String(value)] ?? String(value)))
  const changes = (Object.keys(entry.after) as (keyof SignupPolicy)[])
    .filter((key) => before[key] !== entry.after[key])
    .map((key) => `${fieldWords[key] ?? key}: ${words(before[key])} → ${words(entry.after[key])}`)
  return changes.length ? changes.join('; ') : 'saved without changes'
}

const outcomeNames = { allow: 'allow', challenge: 'challenge', deny: 'deny' } as const
const outcomePlurals = { allow: 'allows', challenge: 'challenges', deny: 'denies' } as const

function outcomes(count: number, outcome: keyof typeof outcomeNames): string {
  return `${formatCount(count)} ${count === 1 ? outcomeNames[outcome] : outcomePlurals[outcome]}`
}

function plural(count: number, word: string): string {
  return `${formatCount(count)} ${word}${count === 1 ? '' : 's'}`
}

/** "Over the last 7 days, this change would have turned N allows into challenges…", with examples. */
function PreviewResult({ preview }: { preview: PolicyPreview | 'loading' | null }) {
  if (preview === null) return null
  if (preview === 'loading')
    return (
      <p role="status" className="muted">
        Trying the change on the last 7 days of sign-ups…
      </p>
    )
  const untried =
    preview.withoutFacts > 0
      ? ` (${plural(preview.withoutFacts, 'older decision')} could not be tried: stored before their facts were kept)`
      : ''
  return (
    <div role="status" className={styles.preview}>
      {preview.changes.length === 0 ? (
        <p>
          Over the last {preview.days} days, this change would have changed none of the{' '}
          {plural(preview.decisions, 'sign-up decision')}
          {untried}.
        </p>
      ) : (
        <>
          <p>
            Over the last {preview.days} days ({plural(preview.decisions, 'sign-up decision')}
            {untried}), this change would have turned{' '}
            {preview.changes
              .map(
                (change) =>
                  `${outcomes(change.count, change.from)} into ${change.count === 1 ? `${change.to === 'allow' ? 'an' : 'a'} ${outcomeNames[change.to]}` : outcomePlurals[change.to]}`,
              )
              .join(', ')}
            .
          </p>
          {preview.changes.map((change) => (
            <details key={`${change.from}-${change.to}`}>
              <summary>
                {outcomeNames[change.from]} → {outcomeNames[change.to]}: examples
              </summary>
              <ul className={styles.reasons}>
                {change.examples.map((example) => (
                  <li key={example.requestId}>
                    {example.email} · <Time iso={example.createdAt} />
                    {example.reasons.length > 0 && `: ${example.reasons.join(' ')}`}
                  </li>
                ))}
              </ul>
            </details>
          ))}
        </>
      )}
    </div>
  )
}
