import { expect, type Locator, type Page, test } from '@playwright/test'
import { identifyOnDevicePage } from '../support/device-page'
import { openSignedInConsole, setPolicy } from '../support/helpers'

const PASSWORD = 'cobalt-meridian-lantern-77'

/** An address long enough to push a table's other columns out of view if it kept to one line. */
function longEmail(): string {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  return `katherine.johnson.with.a.rather.long.address.${unique}@subdomain.example.com`
}

/** The device page's visitor and request IDs, then a sign-up from the same browser (denied: a bot). */
async function visitAndSignUp(page: Page, email: string) {
  const { visitorId } = await identifyOnDevicePage(page)
  await page.goto('/registration')
  await expect(page.getByTestId('device-check')).toHaveText('Device check: done', { timeout: 15_000 })
  await page.getByLabel('Full name').fill('Katherine Johnson')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('I accept the terms of service').check()
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'We could not create your account' })).toBeVisible()
  return visitorId
}

/** Whether an element lies within the screen's width as it is, nothing scrolled sideways. */
async function withinWidth(locator: Locator, width: number) {
  const box = await locator.boundingBox()
  return box !== null && box.x >= 0 && box.x + box.width <= width
}

test.afterAll(async ({ request }) => {
  await setPolicy(request, {})
})

test('on a phone every column of a sign-up decision, an event and a waiting sign-up is on screen, still a table, and the row opens its event', async ({
  page,
  request,
}) => {
  await setPolicy(request, {})
  const email = longEmail()
  const visitorId = await visitAndSignUp(page, email)
  await page.setViewportSize({ width: 390, height: 844 })
  await openSignedInConsole(page)

  // A sign-up decision: its email, decision, reasons and visitor within the screen, unscrolled.
  const decisions = page.getByRole('region', { name: 'Sign-up decisions' })
  const decision = decisions.getByRole('table').getByRole('row').filter({ hasText: email })
  await expect(decision).toHaveCount(1, { timeout: 15_000 })
  await decision.scrollIntoViewIfNeeded()
  await expect(decisions.getByRole('columnheader', { name: 'Reasons' })).toBeAttached()
  const cells = decision.getByRole('cell')
  expect(await cells.count()).toBeGreaterThanOrEqual(5)
  for (const cell of await cells.all()) expect(await withinWidth(cell, 390)).toBe(true)
  // Each cell is named by its value alone: the column's name before it is for the eyes.
  expect(await withinWidth(decision.getByRole('cell', { name: email, exact: true }), 390)).toBe(true)
  expect(await withinWidth(decision.getByText('denied', { exact: true }), 390)).toBe(true)
  expect(await withinWidth(decision.getByRole('button', { name: visitorId }), 390)).toBe(true)
  // Nothing scrolls sideways, so the frame is no stop of its own and says nothing of scrolling.
  await expect(page.getByRole('region', { name: /scrolling sideways/ })).toHaveCount(0)
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(pageWidth).toBeLessThanOrEqual(390)

  // The row's time opens the sign-up's event, by keyboard as by pointer.
  const details = decision.getByRole('button', { name: `: sign-up details of ${email}` })
  expect(await withinWidth(details, 390)).toBe(true)
  await details.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: /^Event / })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // An event of the same visitor: its visitor, confidence, signals and score on screen too.
  const events = page.getByRole('region', { name: 'Recent events' })
  const event = events
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: visitorId }) })
    .first()
  await event.scrollIntoViewIfNeeded()
  const eventCells = event.getByRole('cell')
  expect(await eventCells.count()).toBeGreaterThanOrEqual(6)
  for (const cell of await eventCells.all()) expect(await withinWidth(cell, 390)).toBe(true)
  expect(await withinWidth(event.getByRole('button', { name: visitorId }), 390)).toBe(true)
  expect(await withinWidth(event.getByText('Bot or automation: bad'), 390)).toBe(true)
  // The keyboard goes through a row in reading order: its time, then its visitor.
  const eventDetails = event.getByRole('button', { name: /: event details$/ })
  await eventDetails.focus()
  await page.keyboard.press('Tab')
  await expect(event.getByRole('button', { name: visitorId })).toBeFocused()
  await eventDetails.click()
  await expect(dialog.getByRole('heading', { name: /^Event / })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // The pager stays in reach below the list.
  const older = events.getByRole('button', { name: /Older/ })
  if (await older.count()) expect(await withinWidth(older, 390)).toBe(true)

  // The waiting sign-up in the review queue: its email and verdicts within the screen.
  const queue = page.getByRole('region', { name: 'Review queue' })
  const waiting = queue.getByRole('row').filter({ hasText: email })
  await waiting.scrollIntoViewIfNeeded()
  expect(await withinWidth(waiting.getByRole('cell', { name: email, exact: true }), 390)).toBe(true)
  expect(await withinWidth(waiting.getByRole('button', { name: `Approve ${email}` }), 390)).toBe(true)

  // The visitor's own history (the look-up's panel) fits as well.
  await decision.getByRole('button', { name: visitorId }).click()
  const panel = page.getByRole('region', { name: `Visitor ${visitorId}` })
  await expect(panel).toBeVisible()
  const visit = panel.getByRole('table').getByRole('row').nth(1)
  for (const cell of await visit.getByRole('cell').all()) expect(await withinWidth(cell, 390)).toBe(true)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})

test('on a desktop a long email wraps, the sign-up decisions keep their reasons and visitor in view, and the visitor history fits its panel', async ({
  page,
  request,
}) => {
  await setPolicy(request, {})
  const email = longEmail()
  // A visit to a long address too, which the history lists with its page.
  await identifyOnDevicePage(page, `?utm_campaign=${'a-rather-long-campaign-name-'.repeat(4)}`)
  const visitorId = await visitAndSignUp(page, email)
  await page.setViewportSize({ width: 1280, height: 800 })
  await openSignedInConsole(page)
  const decisions = page.getByRole('region', { name: 'Sign-up decisions' })
  const decision = decisions.getByRole('row').filter({ hasText: email })
  await expect(decision).toHaveCount(1, { timeout: 15_000 })
  await decision.scrollIntoViewIfNeeded()
  // In view of the page, and of the table's frame (which would otherwise scroll them out of sight).
  const frame = decisions.getByRole('table').locator('xpath=..')
  const frameBox = await frame.boundingBox()
  const right = Math.min(1280, (frameBox?.x ?? 0) + (frameBox?.width ?? 0))
  for (const name of ['Reasons', 'Visitor']) {
    expect(await withinWidth(decisions.getByRole('columnheader', { name }), right)).toBe(true)
  }
  expect(await withinWidth(decision.getByRole('button', { name: visitorId }), right)).toBe(true)
  // The whole address is still there to read (wrapped, not cut).
  await expect(decision.getByText(email, { exact: true })).toBeVisible()
  expect(await frame.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true)

  // The visitor's history, in the look-up's panel: every column in its frame, nothing scrolled away.
  await decision.getByRole('button', { name: visitorId }).click()
  const panel = page.getByRole('region', { name: `Visitor ${visitorId}` })
  const history = panel.getByRole('table', { name: "The visitor's history" })
  // This browser's visits, newest first: earlier tests' visits too, as it is the same device.
  await expect(history.getByRole('row').nth(3)).toBeVisible()
  await expect(history.getByRole('cell', { name: /a-rather-long-campaign-name-/ }).first()).toBeVisible()
  const historyFrame = history.locator('xpath=..')
  expect(await historyFrame.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)
  await expect(history.getByRole('columnheader')).toHaveText([
    'Time',
    'Site and page',
    'Browser',
    'How matched',
    'IP',
    'Signals',
    'Score',
  ])
  await expect(history.getByRole('row').nth(1).getByRole('cell').nth(3)).toHaveText(
    /^(stored ID|fingerprint|new visitor)\s*\d+% confidence$/,
  )
})

test('an open visitor stays where it is when a filter further down changes, and comes back into view when asked for again', async ({
  page,
}) => {
  const { visitorId } = await identifyOnDevicePage(page)
  await page.setViewportSize({ width: 1280, height: 800 })
  await openSignedInConsole(page)
  await page.goto(`/?lookup=${visitorId}`)
  const panel = page.getByRole('region', { name: `Visitor ${visitorId}` })
  await expect(panel.getByRole('table', { name: "The visitor's history" })).toBeVisible({ timeout: 15_000 })
  // Down to the recent events, past the panel, and a filter changed there.
  const show = page.getByRole('region', { name: 'Recent events' }).getByLabel('Show')
  await show.evaluate((element) => element.scrollIntoView({ block: 'start' }))
  await expect(panel).not.toBeInViewport({ ratio: 0.5 })
  const before = await page.evaluate(() => window.scrollY)
  await show.selectOption('bot')
  await expect(page).toHaveURL(/[?&]signal=bot/)
  await expect(page).toHaveURL(new RegExp(`[?&]lookup=${visitorId}`))
  // The page re-rendered with the new address: the panel, still open, did not pull the page back to it.
  await page.waitForTimeout(500)
  await expect(show).toBeInViewport()
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - before)).toBeLessThan(50)
  // Asked for again from an event down there, the visitor already open comes back into view.
  await page
    .getByRole('region', { name: 'Recent events' })
    .getByRole('button', { name: visitorId, exact: true })
    .first()
    .click()
  await expect(panel.getByRole('heading', { name: `Visitor ${visitorId}` })).toBeInViewport()
})
