'use client'

import { type FormEvent, useState } from 'react'
import type { PolicyChange, PolicyWithAudit } from '@/contracts/console'
import { type RuleOutcome, SignupPolicy } from '@/contracts/signup-policy'
import { formatTime } from '../format'
import { LoadedView } from '../LoadedView'
import { EmptyNote } from '../Notes'
import { useLoaded } from '../useLoaded'
import { callConsole } from './api'
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
    help: 'One device created this many accounts in 24 hours.',
    threshold: { key: 'maxAccountsPerVisitor', label: 'Accounts per 24 h' },
  },
  { key: 'tamperingRule', title: 'Tampering', help: 'The browser hides or fakes what it is.' },
  {
    key: 'visitorAttemptsRule',
    title: 'Attempts per device',
    help: 'Sign-up attempts from one device in 10 minutes.',
    threshold: { key: 'maxAttemptsPerVisitor', label: 'Attempts per 10 min' },
  },
  {
    key: 'ipAttemptsRule',
    title: 'Attempts per IP',
    help: 'Sign-up attempts from one IP address in 10 minutes.',
    threshold: { key: 'maxAttemptsPerIp', label: 'Attempts per 10 min' },
  },
  {
    key: 'suspectScoreRule',
    title: 'Suspect score',
    help: 'The weighted smart signals add up to this score.',
    threshold: { key: 'suspectScoreThreshold', label: 'Score at or above' },
  },
]

/** The sign-up rules: what each does and its threshold, validated, with who changed what. */
export function RulesEditor() {
  const { loaded, reload } = useLoaded(loadRules)
  const [status, setStatus] = useState<{ tone: 'error' | 'success'; text: string } | null>(null)

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const candidate = Object.fromEntries(
      Object.keys(SignupPolicy.shape).map((key) => {
        const value = String(data.get(key) ?? '')
        return [key, key.endsWith('Rule') ? value : Number(value)]
      }),
    )
    const parsed = SignupPolicy.safeParse(candidate)
    if (!parsed.success) {
      setStatus({
        tone: 'error',
        text: `Check the thresholds: ${parsed.error.issues[0]?.message ?? 'invalid value'}.`,
      })
      return
    }
    try {
      await callConsole('/api/console/rules', { method: 'PUT', body: parsed.data })
      setStatus({ tone: 'success', text: 'Rules saved. The next sign-up uses them.' })
      await reload()
    } catch (error) {
      setStatus({ tone: 'error', text: error instanceof Error ? error.message : 'The rules were not saved.' })
    }
  }

  return (
    <section aria-labelledby="rules-heading" className={styles.section}>
      <h2 id="rules-heading">Sign-up rules</h2>
      <p className="muted">
        Every rule that fires is a reason; the strictest outcome wins. A solved challenge satisfies
        “challenge”, never “deny”.
      </p>
      <LoadedView loaded={loaded} loading="Loading rules…">
        {({ policy, audit }) => (
          <>
            <form className={`card ${styles.stack}`} onSubmit={save} key={JSON.stringify(policy)}>
              <div className={styles.rules}>
                {rules.map((rule) => (
                  <fieldset key={rule.key} className={styles.rule}>
                    <legend>{rule.title}</legend>
                    <p className="muted">{rule.help}</p>
                    <label className={styles.inlineField}>
                      <span>Outcome</span>
                      <select name={rule.key} defaultValue={String(policy[rule.key])}>
                        {(['deny', 'challenge', 'off'] as RuleOutcome[]).map((outcome) => (
                          <option key={outcome} value={outcome}>
                            {outcome === 'off' ? 'off (ignore)' : outcome}
                          </option>
                        ))}
                      </select>
                    </label>
                    {rule.threshold && (
                      <label className={styles.inlineField}>
                        <span>{rule.threshold.label}</span>
                        <input
                          name={rule.threshold.key}
                          type="number"
                          min={1}
                          required
                          defaultValue={Number(policy[rule.threshold.key])}
                        />
                      </label>
                    )}
                  </fieldset>
                ))}
              </div>
              {status && (
                <p role={status.tone === 'error' ? 'alert' : 'status'} className={styles[status.tone]}>
                  {status.text}
                </p>
              )}
              <button type="submit" className="button">
                Save rules
              </button>
            </form>
            <h3>Changes</h3>
            {audit.length === 0 ? (
              <EmptyNote>The rules still have their defaults; changes are listed here.</EmptyNote>
            ) : (
              <ul className={styles.list}>
                {audit.map((entry) => (
                  <li key={entry.changedAt}>
                    <span>
                      <strong>{entry.operator}</strong> · {formatTime(entry.changedAt)}:{' '}
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

function loadRules() {
  return callConsole<PolicyWithAudit>('/api/console/rules')
}

function describeChange(entry: PolicyChange): string {
  const before: Partial<SignupPolicy> = entry.before ?? {}
  const changes = (Object.keys(entry.after) as (keyof SignupPolicy)[])
    .filter((key) => before[key] !== entry.after[key])
    .map((key) => `${key} ${String(before[key] ?? '—')} → ${String(entry.after[key])}`)
  return changes.length ? changes.join(', ') : 'saved without changes'
}
