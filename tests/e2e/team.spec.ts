import { expect, test } from '@playwright/test'
import { seriousViolations } from '../support/axe'
import { openSignedInConsole } from '../support/helpers'

test('an owner invites an analyst by a link shown once; the analyst joins, reads the rules and cannot change them', async ({
  browser,
  page,
}) => {
  await openSignedInConsole(page)
  const team = page.getByRole('region', { name: 'Team' })
  await expect(team.getByRole('row').filter({ hasText: 'you' })).toContainText('admin')
  await team.getByLabel('Invite as').selectOption('analyst')
  await team.getByRole('button', { name: 'Create an invitation link' }).click()
  const shown = team.getByRole('status').filter({ hasText: 'Send this link' })
  await expect(shown).toBeVisible()
  const link = (await shown.locator('code, pre').first().innerText()).trim()
  expect(link).toMatch(/\/#invitation=[\w-]+$/)
  expect(await seriousViolations(page, 'section[aria-labelledby="team-heading"]')).toEqual([])
  await team.screenshot({ path: test.info().outputPath('team.png') })
  await team.getByRole('button', { name: 'I have copied it' }).click()
  await expect(team.getByText(/An invitation as analyst by admin/)).toBeVisible()

  // The invited person, in a browser of their own.
  const theirs = await browser.newContext()
  const invited = await theirs.newPage()
  await invited.goto(link)
  const join = invited.getByRole('form', { name: 'Join the team' })
  await expect(join).toBeVisible()
  // The link's page opens at its form, ready to type.
  await expect(join.getByLabel('Username')).toBeFocused()
  await expect(join).toBeInViewport()
  expect(await seriousViolations(invited, 'form[aria-labelledby="join-heading"]')).toEqual([])
  const name = `ana${Date.now().toString(36)}`
  await join.getByLabel('Username').fill(name)
  await join.getByLabel('Password').fill('password')
  await join.getByRole('button', { name: 'Join' }).click()
  await expect(join.getByLabel('Password')).toHaveAccessibleDescription(/too easy to guess|common|guess/i)
  await join.getByLabel('Password').fill('violet harbour lantern 42')
  await join.getByRole('button', { name: 'Join' }).click()
  await expect(invited.getByRole('heading', { name: 'Console', exact: true })).toBeVisible()
  await expect(invited).toHaveURL(/\/$/)
  // Read-only rules, no save; no sites nor team.
  const rules = invited.getByRole('region', { name: 'Sign-up rules' })
  await expect(rules.getByText('Your role reads the rules; an admin changes them.')).toBeVisible()
  await expect(rules.getByRole('button', { name: 'Save rules' })).toHaveCount(0)
  await expect(rules.getByRole('combobox').first()).toBeDisabled()
  await expect(invited.getByRole('region', { name: 'Team' })).toHaveCount(0)
  await expect(
    invited.getByText('Sites, keys, lists and webhooks are run by admins: your role is analyst.'),
  ).toBeVisible()
  // An analyst looks a visitor up, and is not offered what only an admin may do (forgetting it).
  await invited.goto('/device-fingerprint')
  const device = invited.getByTestId('visitor-id')
  await expect(device).toHaveText(/^[\w-]{20}$/, { timeout: 15_000 })
  await invited.goto(`/?lookup=${await device.textContent()}`)
  await expect(
    invited.getByText('An admin can forget this visitor (erase its visits and identifiers).'),
  ).toBeVisible()
  await expect(invited.getByRole('button', { name: /Forget this visitor/ })).toHaveCount(0)
  // The link worked once.
  const again = await browser.newContext()
  const reused = await again.newPage()
  await reused.goto(link)
  const secondJoin = reused.getByRole('form', { name: 'Join the team' })
  await secondJoin.getByLabel('Username').fill(`${name}x`)
  await secondJoin.getByLabel('Password').fill('violet harbour lantern 42')
  await secondJoin.getByRole('button', { name: 'Join' }).click()
  await expect(
    secondJoin.getByText('This invitation is unknown, used or expired: ask for a new one.'),
  ).toBeVisible()

  // The owner removes the analyst; their console is signed out.
  await page.reload()
  const row = team.getByRole('row').filter({ hasText: name })
  // Removal asks first, in the page: keeping is the focused choice, and keeps them.
  await row.getByRole('button', { name: `Remove ${name}` }).click()
  const question = row.getByRole('group', { name: `Remove ${name}? Their sessions end at once.` })
  await expect(question.getByRole('button', { name: `Keep ${name}` })).toBeFocused()
  await team.screenshot({ path: test.info().outputPath('team-remove.png') })
  await question.getByRole('button', { name: `Keep ${name}` }).click()
  const remove = row.getByRole('button', { name: `Remove ${name}` })
  await expect(remove).toBeFocused()
  // Escape puts the question away as Keep does.
  await page.keyboard.press('Enter')
  await expect(question).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(question).toHaveCount(0)
  await expect(remove).toBeFocused()
  await remove.click()
  await row.getByRole('button', { name: `Yes, remove ${name}` }).click()
  await expect(row).toHaveCount(0)
  await invited.reload()
  await expect(invited.getByRole('button', { name: 'Sign in' })).toBeVisible()
  await theirs.close()
  await again.close()
})
