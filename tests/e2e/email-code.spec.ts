import AxeBuilder from '@axe-core/playwright'
import { expect, request as http, test } from '@playwright/test'
import { defaultSignupPolicy } from '../../src/contracts/signup-policy'
import { ADMIN_PASSWORD, EXTRA_SERVER_PORTS } from '../support/e2e-constants'
import { allRulesOff, uniqueEmail } from '../support/helpers'
import { startSmtpCapture } from '../support/smtp-capture'
import { removeServerFiles, startTesseraServer } from '../support/tessera-server'

test('a challenged sign-up is asked for a code mailed to its address, and the right code creates the account', async ({
  page,
}) => {
  const smtp = await startSmtpCapture()
  const server = await startTesseraServer({
    port: EXTRA_SERVER_PORTS.emailCode,
    env: { TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD, TESSERA_SMTP_URL: smtp.url },
  })
  const operator = await http.newContext({ baseURL: server.url })
  try {
    expect((await operator.post('/api/console/session', { data: { password: ADMIN_PASSWORD } })).ok()).toBe(
      true,
    )
    // This automated browser is challenged, and the challenge is a mailed code.
    const saved = await operator.put('/api/console/rules', {
      data: { ...defaultSignupPolicy, ...allRulesOff, botRule: 'challenge', challengeKind: 'emailCode' },
    })
    expect(saved.status()).toBe(200)

    const email = uniqueEmail('coded')
    await page.goto(`${server.url}/registration`)
    await expect(page.getByTestId('device-check')).toHaveText('Device check: done', { timeout: 15_000 })
    await page.getByLabel('Full name').fill('Katherine Johnson')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('cobalt-meridian-lantern-77')
    await page.getByLabel('I accept the terms of service').check()
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByRole('heading', { name: 'One more step' })).toBeVisible()
    const step = page.getByRole('region', { name: 'One more step' })
    await expect(step.getByRole('status')).toHaveText(
      `We sent a 6-digit code to ${email}. Enter it to finish creating your account.`,
    )
    const field = page.getByLabel('Code from the mail')
    await expect(field).toBeFocused()
    await expect.poll(() => smtp.codeFor(email)).toMatch(/^\d{6}$/)
    const code = smtp.codeFor(email) ?? ''

    // Not six digits: said at the field, nothing sent.
    await field.fill('12')
    await page.getByRole('button', { name: 'Confirm' }).click()
    await expect(field).toHaveAccessibleDescription('Enter the 6 digits from the mail.')
    // A wrong code: said plainly, and no new mail.
    const mails = smtp.mails.length
    await field.fill(code === '000000' ? '000001' : '000000')
    await page.getByRole('button', { name: 'Confirm' }).click()
    await expect(step.getByRole('status')).toContainText('That code did not work')
    expect(smtp.mails.length).toBe(mails)
    const violations = (await new AxeBuilder({ page }).analyze()).violations.filter((violation) =>
      ['serious', 'critical'].includes(violation.impact ?? ''),
    )
    expect(violations.map((violation) => violation.id)).toEqual([])
    await page.screenshot({ path: test.info().outputPath('email-code.png') })

    await field.fill(code)
    await page.getByRole('button', { name: 'Confirm' }).click()
    await expect(page.getByRole('heading', { name: 'Welcome, Katherine Johnson!' })).toBeVisible()
  } finally {
    await operator.dispose()
    await server.stop()
    await smtp.close()
    removeServerFiles(server)
  }
})

test('the email challenge cannot be chosen on a server without a mail server', async ({ request }) => {
  const { setPolicy } = await import('../support/helpers')
  await expect(setPolicy(request, { challengeKind: 'emailCode' })).rejects.toThrow(/TESSERA_SMTP_URL/)
})
