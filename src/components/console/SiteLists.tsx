'use client'

import { useState } from 'react'
import type { SiteSummary } from '@/contracts/console'
import { FormField } from '../FormField'
import { ErrorNote, SuccessNote } from '../Notes'
import { callConsole } from './api'
import styles from './console.module.css'
import { splitEntries } from './split-entries'
import { useFormAction } from './useFormAction'

const LISTS = [
  {
    name: 'deny',
    label: 'Deny list',
    hint: 'One per line: an address or CIDR range (203.0.113.0/24), a visitor ID, or an email domain (@mailinator.com, subdomains included). Identifications from a listed address are flagged; listed sign-ups are denied (the rule "Deny list").',
    placeholder: '203.0.113.0/24\n@mailinator.com',
  },
  {
    name: 'allow',
    label: 'Allow list',
    hint: 'One per line: an address or range (up to /16, or /32 for IPv6) or a visitor ID; email domains cannot be allowed, as anyone can type an address. A listed address passes every rule; a listed visitor passes challenges, not denials (a copy of its fingerprint would share it). The deny list and a fraud label still win.',
    placeholder: '198.51.100.0/24',
  },
] as const

/** The site's deny and allow lists, saved together (an entry may be on one of them only). */
export function SiteLists({ site, onChange }: { site: SiteSummary; onChange: () => Promise<void> }) {
  const { errors, submit } = useFormAction(['deny', 'allow'], 'The lists were not saved.')
  const [saved, setSaved] = useState(false)
  const entries = { deny: site.denyList, allow: site.allowList }

  return (
    <form
      className={styles.stack}
      noValidate
      onSubmit={async (event) => {
        setSaved(false)
        setSaved(
          await submit(event, async (data) => {
            await callConsole('PUT /api/console/sites/:siteId/lists', {
              params: { siteId: site.id },
              body: {
                deny: splitEntries(String(data.get('deny') ?? '')),
                allow: splitEntries(String(data.get('allow') ?? '')),
              },
            })
            await onChange()
          }),
        )
      }}
    >
      {LISTS.map((list) => (
        <FormField key={list.name} label={list.label} hint={list.hint} error={errors.fields[list.name]}>
          {(control) => (
            <textarea
              {...control}
              name={list.name}
              rows={Math.min(Math.max(entries[list.name].length + 1, 2), 10)}
              defaultValue={entries[list.name].join('\n')}
              placeholder={list.placeholder}
            />
          )}
        </FormField>
      ))}
      {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
      <div className={styles.row}>
        <button type="submit" className="button button-secondary">
          Save lists
        </button>
        {saved && <SuccessNote>Saved.</SuccessNote>}
      </div>
    </form>
  )
}
