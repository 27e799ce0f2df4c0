import { expect, type Page, test } from '@playwright/test'
import { seriousViolations } from '../support/axe'
import { browserHeaders } from '../support/browser-headers'
import { allRulesOff, openSignedInConsole, setPolicy, uniqueEmail } from '../support/helpers'
import { syntheticDevice } from '../support/synthetic-devices'

const PASSWORD = 'cobalt-meridian-lantern-77'

/** Signs up through /registration as a visitor would; answers with the outcome's heading. */
async function signUp(page: Page, email: string) {
  await page.goto('/registration')
  await expect(page.getByTestId('device-check')).toHaveText('Device check: done', { timeout: 15_000 })
  await page.getByLabel('Full name').fill('Mallory Example')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('I accept the terms of service').check()
  await page.getByRole('button', { name: 'Create account' }).click()
  const outcome = page.getByRole('heading', { name: /We could not create your account|Welcome/ })
  await expect(outcome).toBeVisible()
  return outcome.innerText()
}

test.afterAll(async ({ request }) => {
  await setPolicy(request, {})
})

test('an analyst rejects a denied sign-up with one key, relabels the device by keyboard, and lists decide by email domain', async ({
  browser,
  page,
  request,
}) => {
  // A visitor in a browser of its own is denied: the default policy denies this automated browser.
  await setPolicy(request, {})
  const visitorContext = await browser.newContext()
  const visitor = await visitorContext.newPage()
  const first = uniqueEmail('mallory')
  expect(await signUp(visitor, first)).toBe('We could not create your account')

  await openSignedInConsole(page)
  const queue = page.getByRole('region', { name: 'Review queue' })
  const row = queue.getByRole('row', { name: `${first}, denied` })
  await expect(row).toBeVisible()
  // The section links under the console's header take the analyst down to the queue.
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('link', { name: 'Review queue' })
    .click()
  await expect(page).toHaveURL(/#review-heading$/)
  await expect(queue.getByRole('heading', { name: 'Review queue' })).toBeInViewport()
  // On a phone each waiting sign-up is a card: its email, reasons and verdict buttons all within
  // the screen's width, nothing scrolled sideways or hidden behind the verdict column.
  const wide = page.viewportSize()
  await page.setViewportSize({ width: 390, height: 844 })
  await row.evaluate((element) =>
    window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 200),
  )
  const within = async (locator: ReturnType<typeof row.getByRole>) => {
    const box = await locator.boundingBox()
    return box !== null && box.x >= 0 && box.x + box.width <= 390
  }
  expect(await row.evaluate((element) => element.getBoundingClientRect().right)).toBeLessThanOrEqual(390)
  // The column's name before the email is for the eyes: the cell's name is the email alone.
  expect(await within(row.getByRole('cell', { name: first, exact: true }))).toBe(true)
  expect(await within(row.getByRole('button', { name: `Approve ${first}` }))).toBe(true)
  expect(await within(row.getByRole('button', { name: `Reject ${first}` }))).toBe(true)
  expect(await seriousViolations(page, 'section[aria-labelledby="review-heading"]')).toEqual([])
  // A card's verdicts are not pinned, so they draw no ring of their own inside the card's outline.
  const verdictCell = row.getByRole('cell').last()
  const ring = () => verdictCell.evaluate((cell) => getComputedStyle(cell).boxShadow)
  await row.focus()
  expect(await ring()).toBe('none')
  await row.evaluate((element) => (element as HTMLElement).blur())
  if (wide) await page.setViewportSize(wide)
  expect(await seriousViolations(page, 'section[aria-labelledby="review-heading"]')).toEqual([])
  await queue.screenshot({ path: test.info().outputPath('review-queue.png') })

  // One key: R rejects, the row leaves, and a screen reader hears what was done.
  expect(await ring()).not.toContain('inset')
  await row.focus()
  // The pinned verdict column paints over the row's outline: it draws its own part of the ring.
  expect(await ring()).toMatch(/inset.*inset.*inset/)
  await page.keyboard.press('r')
  await expect(row).toHaveCount(0)
  await expect(queue.getByText(`Rejected ${first}: device labelled fraud.`)).toBeVisible()
  // A verdict can be taken back: the row returns with the focus, to be decided again.
  const undo = queue.getByRole('button', { name: `Undo the verdict on ${first}` })
  await undo.click()
  await expect(row).toBeFocused()
  await expect(
    queue.getByText(`Rejection of ${first} undone: it waits again, its device without a label.`),
  ).toBeVisible()
  await expect(undo).toHaveCount(0)
  await page.keyboard.press('r')
  await expect(row).toHaveCount(0)
  const decisions = page.getByRole('region', { name: 'Sign-up decisions' })
  const decided = decisions.getByRole('row').filter({ hasText: first })
  await expect(decided).toContainText('rejected by admin', { timeout: 15_000 })
  await expect(decided).toContainText('labelled device fraud')

  // With every other rule off, the label alone denies the device's next sign-up.
  await setPolicy(request, allRulesOff)
  expect(await signUp(visitor, uniqueEmail('mallory'))).toBe('We could not create your account')

  // The analyst opens the visitor and labels it good, by keyboard alone.
  await decided.getByRole('button', { name: /^[\w-]{20}$/ }).click()
  const labels = page.getByRole('group', { name: /^Label of visitor / })
  await expect(labels.getByRole('button', { name: 'Fraud' })).toHaveAttribute('aria-pressed', 'true')
  await labels.getByRole('button', { name: 'Fraud' }).focus()
  await page.keyboard.press('Tab')
  await expect(labels.getByRole('button', { name: 'Good' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(labels.getByRole('button', { name: 'Good' })).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByText(/^by you, /)).toBeVisible()
  expect(await seriousViolations(page, '[aria-labelledby="panel-heading"]')).toEqual([])
  await page
    .locator('[aria-labelledby="panel-heading"]')
    .screenshot({ path: test.info().outputPath('visitor-label.png') })
  expect(await signUp(visitor, uniqueEmail('mallory'))).toMatch(/^Welcome/)

  // The deny list: an email domain, subdomains included, whatever the device's label.
  const home = page.getByRole('article', { name: /^Default site/ })
  const lists = home.getByLabel('Deny list')
  await lists.fill('@spam.example')
  await home.getByRole('button', { name: 'Save lists' }).click()
  await expect(home.getByText('Saved.')).toBeVisible()
  // Its own address on each run: a retried spec must not find the last run's row too.
  const spam = uniqueEmail('mallory').replace('@example.com', '@eu.spam.example')
  expect(await signUp(visitor, spam)).toBe('We could not create your account')
  await expect(decisions.getByRole('row').filter({ hasText: spam })).toContainText(
    "The email domain @spam.example is on this site's deny list.",
    { timeout: 15_000 },
  )
  // An entry that is none of the kinds is refused in the field, and nothing is saved.
  await lists.fill('@spam.example\nnot an entry')
  await home.getByRole('button', { name: 'Save lists' }).click()
  await expect(lists).toHaveAccessibleDescription(/"not an entry" is not an IP address/)
  await expect(lists).toBeFocused()
  await lists.fill('')
  await home.getByRole('button', { name: 'Save lists' }).click()
  await expect(home.getByText('Saved.')).toBeVisible()
  // This browser is every spec's device: it leaves without a label, as it came.
  await labels.getByRole('button', { name: 'No label' }).click()
  await expect(labels.getByRole('button', { name: 'No label' })).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByText(/^by /)).toHaveCount(0)
  await visitorContext.close()
})

test('filters live in the address: applied, kept on reload, shared as a link, and cleared', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000)
  await setPolicy(request, {})
  const denied = uniqueEmail('filtered')
  expect(await signUp(page, denied)).toBe('We could not create your account')

  await openSignedInConsole(page)
  const events = page.getByRole('region', { name: 'Recent events' })
  await events.getByText('Filter events').click()
  await events.getByLabel('Address or CIDR range').fill('127.0.0.1/8')
  await events.getByLabel('Score at least').fill('1')
  await events.getByRole('button', { name: 'Apply filters' }).click()
  await expect(page).toHaveURL(/ip=127\.0\.0\.1%2F8/)
  await expect(page).toHaveURL(/minScore=1/)
  await expect(events.getByText('2 on')).toBeVisible()

  const decisions = page.getByRole('region', { name: 'Sign-up decisions' })
  await decisions.getByText('Filter decisions').click()
  await decisions.getByLabel('Outcome').selectOption('deny')
  await decisions.getByLabel('Email or @domain').fill(denied)
  await decisions.getByRole('button', { name: 'Apply filters' }).click()
  await expect(page).toHaveURL(/outcome=deny/)
  await expect(decisions.getByRole('row')).toHaveCount(2)
  await expect(decisions.getByRole('row').nth(1)).toContainText(denied)
  expect(await seriousViolations(page, 'main')).toEqual([])
  await decisions.screenshot({ path: test.info().outputPath('decision-filters.png') })
  await events.screenshot({ path: test.info().outputPath('event-filters.png') })

  // A reload (or a colleague opening the link) shows the same lists, filters filled in.
  await page.reload()
  await expect(events.getByLabel('Address or CIDR range')).toHaveValue('127.0.0.1/8')
  await expect(decisions.getByLabel('Outcome')).toHaveValue('deny')
  await expect(decisions.getByRole('row').nth(1)).toContainText(denied)
  // A filter that matches nothing says so; an address that is none is refused, plainly.
  await decisions.getByLabel('Outcome').selectOption('allow')
  await decisions.getByRole('button', { name: 'Apply filters' }).click()
  await expect(decisions.getByText('No sign-up decision matches these filters.')).toBeVisible()
  await events.getByLabel('Address or CIDR range').fill('10.0.0')
  await events.getByRole('button', { name: 'Apply filters' }).click()
  await expect(events.getByText(/Give an IP address or a CIDR range/)).toBeVisible()
  // The parameter's name is for API clients; the panel says the words alone.
  await expect(events.getByText(/ip: Give/)).toHaveCount(0)

  await events.getByRole('button', { name: 'Clear filters' }).click()
  await decisions.getByRole('button', { name: 'Clear filters' }).click()
  await expect(page).not.toHaveURL(/ip=|minScore=|outcome=|email=/)

  // Keyset pages within a filter: 16 events of one linked ID are a page of 15 and one more.
  const linkedId = `pager-${Date.now().toString(36)}`
  for (let n = 0; n < 16; n++) {
    const components = syntheticDevice(7700 + n)
    const identified = await request.post('/api/v1/identify', {
      headers: { 'content-type': 'application/json', ...browserHeaders(components) },
      data: JSON.stringify({ components, linkedId }),
    })
    expect(identified.ok()).toBe(true)
  }
  await events.getByText('Filter events').click()
  await events.getByLabel('Linked ID').fill(linkedId)
  await events.getByRole('button', { name: 'Apply filters' }).click()
  const rows = events.getByRole('table').getByRole('row')
  await expect(rows).toHaveCount(16)
  await expect(events.getByRole('button', { name: 'Newer' })).toBeDisabled()
  await events.getByRole('button', { name: 'Older' }).click()
  await expect(rows).toHaveCount(2)
  await expect(events.getByRole('button', { name: 'Older' })).toBeDisabled()
  await events.getByRole('button', { name: 'Newer' }).click()
  await expect(rows).toHaveCount(16)
  await events.getByRole('button', { name: 'Clear filters' }).click()

  // The site chosen in the header scopes every panel, and lists name each row's site only across sites.
  await expect(events.getByRole('columnheader', { name: 'Site' })).toBeVisible()
  await page.getByLabel('Site', { exact: true }).selectOption({ label: 'Default site' })
  await expect(page).toHaveURL(/site=pk_/)
  await page.screenshot({ path: test.info().outputPath('console-site.png') })
  await expect(events.getByRole('columnheader', { name: 'Site' })).toHaveCount(0)
  await expect(decisions.getByRole('columnheader', { name: 'Site' })).toHaveCount(0)
  // The site's rules: the default it inherits, its own once given, and the default again.
  const rules = page.getByRole('region', { name: 'Sign-up rules' })
  await expect(rules.getByText('Default site follows the default rules.')).toBeVisible()
  await rules.getByRole('button', { name: 'Give this site its own rules' }).click()
  await expect(rules.getByText('Default site has rules of its own.')).toBeVisible()
  await expect(rules.getByRole('button', { name: 'Save rules' })).toBeVisible()
  await rules.getByRole('button', { name: 'Go back to the default rules' }).click()
  await expect(rules.getByText('Default site follows the default rules.')).toBeVisible()
  await page.getByLabel('Site', { exact: true }).selectOption({ label: 'All sites' })
  await expect(page).not.toHaveURL(/site=/)
  // Each switch left one of each panel (two panels keyed alike by the site had been kept twice).
  for (const label of ['Default site', 'All sites', 'Default site']) {
    await page.getByLabel('Site', { exact: true }).selectOption({ label })
    await expect(page.getByRole('region', { name: 'Review queue' })).toHaveCount(1)
    await expect(page.getByRole('region', { name: 'Sign-up rules' })).toHaveCount(1)
    await expect(page.getByText('Loading the review queue…')).toHaveCount(0)
  }
})
