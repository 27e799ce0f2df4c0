import { expect, type Page, test } from '@playwright/test'
import { allRulesOff, openSignedInConsole, setPolicy, uniqueEmail } from '../support/helpers'

const PASSWORD = 'cobalt-meridian-lantern-77'

async function fillForm(
  page: Page,
  { name = 'Ada Lovelace', email = uniqueEmail('ada'), password = PASSWORD } = {},
) {
  await page.goto('/registration')
  await expect(page.getByTestId('device-check')).toHaveText('Device check: done', { timeout: 15_000 })
  await page.getByLabel('Full name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('I accept the terms of service').check()
  return email
}

test.afterAll(async ({ request }) => {
  await setPolicy(request, {})
})

test('the default policy denies this automated browser, plainly', async ({ page, request }) => {
  await setPolicy(request, {})
  await fillForm(page)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'We could not create your account' })).toBeVisible()
  const outcome = page.getByRole('alert').filter({ hasText: 'We could not create your account' })
  await expect(outcome).toContainText('Sign-ups from this device are not accepted here')
  // The message does not reveal what the detectors saw.
  await expect(outcome).not.toContainText(/bot|automation|webdriver/i)
  // The answer took the form's place: the focus goes to it, then back to the form with the input kept.
  await expect(page.getByRole('heading', { name: 'We could not create your account' })).toBeFocused()
  await page.getByRole('button', { name: 'Back to the form' }).click()
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeFocused()
  await expect(page.getByLabel('Full name')).toHaveValue('Ada Lovelace')
})

test('with the bot rule set to challenge, the browser solves the puzzle and the account is created', async ({
  page,
  request,
}) => {
  await setPolicy(request, { ...allRulesOff, botRule: 'challenge' })
  // A long address without a hyphen, as people have: on a phone it wraps in the console at its dots
  // rather than run off the screen.
  const email = `grace.brewster.murray.hopper.${Date.now().toString(36)}@subdomain.example.com`
  await fillForm(page, { name: 'Grace Hopper', email })
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'One more step' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Welcome, Grace Hopper!' })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('heading', { name: 'Welcome, Grace Hopper!' })).toBeFocused()

  // The console lists the challenge as answered, in words, beside the attempt that answered it.
  await openSignedInConsole(page)
  const rows = page
    .getByRole('region', { name: 'Sign-up decisions' })
    .getByRole('row')
    .filter({ hasText: email })
  await expect(rows).toHaveCount(2, { timeout: 15_000 })
  await expect(rows.nth(0).getByRole('cell', { name: 'allowed after a solved challenge' })).toBeVisible()
  await expect(rows.nth(1).getByRole('cell', { name: 'challenged · answered: allowed' })).toBeVisible()

  // On a phone the challenge opens in a dialog that says how it was answered, its address wrapped.
  await page.setViewportSize({ width: 390, height: 844 })
  await rows
    .nth(1)
    .getByRole('button', { name: /sign-up details of/ })
    .click()
  const decision = page.getByRole('dialog').getByRole('region', { name: 'Sign-up decision' })
  const line = decision.locator('p').filter({ hasText: 'answered: allowed' })
  await expect(line).toContainText(email)
  expect(await line.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0)
})

test('shows inline, accessible field errors before sending anything', async ({ page }) => {
  await page.goto('/registration')
  await page.getByLabel('Email').fill('not-an-email')
  await page.getByLabel('Password', { exact: true }).fill('password1234')
  await page.getByRole('button', { name: 'Create account' }).click()
  const name = page.getByLabel('Full name')
  await expect(name).toBeFocused()
  await expect(name).toHaveAttribute('aria-invalid', 'true')
  await expect(name).toHaveAccessibleDescription('Enter your name.')
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription(/Enter an email address/)
  await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(/too easy to guess/)
  await expect(page.getByLabel('I accept the terms of service')).toHaveAccessibleDescription(
    'Accept the terms to continue.',
  )
})

test('the terms come before the checkbox that accepts them, open from the keyboard, and say how long data is kept', async ({
  page,
}) => {
  await page.goto('/registration')
  const terms = page.getByRole('group').filter({ has: page.getByText('Read the terms of service') })
  await expect(terms.getByText(/device ID they give/)).toBeHidden()
  await page.getByLabel('I accept the terms of service').focus()
  await page.keyboard.press('Shift+Tab')
  await expect(page.getByText('Read the terms of service')).toBeFocused()
  await page.keyboard.press('Enter')
  // The server's retention period (the default, 90 days; Terms.test.tsx checks another).
  await expect(terms.getByText(/device ID they give/)).toContainText('for about 90 days')
  await expect(terms).toContainText('a hash of your password')
  await expect(terms.getByRole('link', { name: 'your device’s page' })).toHaveAttribute(
    'href',
    '/device-fingerprint',
  )
})

test('a second sign-up with an address is answered as the first was, and creates nothing', async ({
  page,
  request,
}) => {
  await setPolicy(request, allRulesOff)
  const email = await fillForm(page)
  await page.getByRole('button', { name: 'Create account' }).click()
  const welcome = page.getByRole('status').filter({ hasText: 'Welcome, Ada Lovelace!' })
  await expect(welcome).toBeVisible()
  const first = await welcome.innerText()
  await fillForm(page, { email })
  await page.getByRole('button', { name: 'Create account' }).click()
  // The same words: whoever types an address cannot learn whether it has an account.
  await expect(welcome).toBeVisible()
  expect(await welcome.innerText()).toBe(first)
  await expect(welcome).toContainText('If this address already had an account, nothing was changed')
})

test('a double-click on "Create account" sends one attempt and shows its answer', async ({
  page,
  request,
}) => {
  await setPolicy(request, allRulesOff)
  await fillForm(page, { name: 'Katherine Johnson' })
  const attempts: string[] = []
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().endsWith('/api/registration')) attempts.push(sent.url())
  })
  await page.getByRole('button', { name: 'Create account' }).dblclick()
  await expect(page.getByRole('heading', { name: 'Welcome, Katherine Johnson!' })).toBeVisible()
  // The second click was dropped, not refused as a replay of the first one's device check.
  await expect(page.getByText(/already used/)).toHaveCount(0)
  expect(attempts).toHaveLength(1)
})

test('a replayed request ID is refused', async ({ page, request }) => {
  await setPolicy(request, allRulesOff)
  await page.goto('/device-fingerprint')
  const requestId = await page.evaluate(async () => {
    const response = await fetch('/api/v1/identify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ components: { timezone: { value: 'UTC', duration: 0 } } }),
    })
    return (await response.json()).requestId as string
  })
  const body = (email: string) => ({
    data: { requestId, fields: { name: 'Replay', email, password: PASSWORD, terms: true } },
  })
  const first = await request.post('/api/registration', body(uniqueEmail('replay')))
  expect(first.status()).toBe(200)
  const again = await request.post('/api/registration', body(uniqueEmail('replay')))
  expect(again.status()).toBe(409)
  expect((await again.json()).error).toEqual({
    code: 'request_reused',
    message: expect.stringMatching(/already used/),
  })
})

test('the same visitor over the account limit is denied', async ({ page, request }) => {
  await setPolicy(request, { ...allRulesOff, accountLimitRule: 'deny', maxAccountsPerVisitor: 1 })
  // Earlier tests already created accounts from this browser (the same visitor, whatever the context).
  await fillForm(page)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'We could not create your account' })).toBeVisible()
})
