import { expect, test } from '@playwright/test'
import { seriousViolations } from '../support/axe'
import { ADMIN_PASSWORD, EXTRA_SERVER_PORTS } from '../support/e2e-constants'
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider } from '../support/oidc-provider'
import { removeServerFiles, startTesseraServer } from '../support/tessera-server'

test('an analyst signs in through the company’s identity provider; someone it gives no role is told why', async ({
  browser,
  page,
}) => {
  const port = EXTRA_SERVER_PORTS.singleSignOn
  // The provider on another site than Tessera (localhost, 127.0.0.1), as a real one is: its redirect
  // back is a cross-site navigation, which the sign-in's cookies must survive.
  const provider = await startOidcProvider({
    host: 'localhost',
    port: EXTRA_SERVER_PORTS.identityProvider,
    redirectUris: [`http://127.0.0.1:${port}/api/sign-in/oidc/callback`],
  })
  provider.accounts.set('grace', { preferred_username: 'grace', tessera_role: 'analyst' })
  provider.accounts.set('mallory', { preferred_username: 'mallory' })
  const server = await startTesseraServer({
    port,
    env: {
      TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD,
      TESSERA_OIDC_ISSUER: provider.issuer,
      TESSERA_OIDC_CLIENT_ID: OIDC_CLIENT_ID,
      TESSERA_OIDC_CLIENT_SECRET: OIDC_CLIENT_SECRET,
      TESSERA_OIDC_NAME: 'Acme ID',
    },
  })
  try {
    await page.goto(server.url)
    const signIn = page.getByRole('form', { name: 'Operator sign-in' })
    const button = signIn.getByRole('link', { name: 'Sign in with Acme ID' })
    await expect(button).toBeVisible()
    expect(await seriousViolations(page, 'form[aria-labelledby="sign-in-heading"]')).toEqual([])
    await signIn.screenshot({ path: test.info().outputPath('sign-in-with-provider.png') })

    // Someone the provider knows but gives no Tessera role: back on the form, told why, not signed in.
    await button.click()
    const atProvider = page.getByRole('heading', { name: 'Test identity provider' })
    await expect(atProvider).toBeVisible()
    await page.getByLabel('Username').fill('mallory')
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(signIn.getByRole('alert')).toHaveText(
      'Your identity provider gives you no Tessera role. Ask your administrator to add one.',
    )
    await expect(page).toHaveURL(`${server.url}/`)

    // Grace, in her own browser, by keyboard: the link is reached with Tab and followed with Enter.
    const graces = await browser.newContext()
    const grace = await graces.newPage()
    await grace.goto(server.url)
    await grace.getByRole('link', { name: 'Sign in with Acme ID' }).focus()
    await grace.keyboard.press('Enter')
    await expect(grace.getByRole('heading', { name: 'Test identity provider' })).toBeVisible()
    await grace.getByLabel('Username').fill('grace')
    await grace.getByLabel('Username').press('Enter')
    await expect(grace.getByRole('heading', { name: 'Console', exact: true })).toBeVisible()
    await expect(grace).toHaveURL(`${server.url}/`)
    await expect(grace.getByText('Signed in as grace')).toBeVisible()
    // An analyst: no team; and no password here to change.
    await expect(grace.getByRole('region', { name: 'Team' })).toHaveCount(0)
    await expect(grace.getByRole('button', { name: 'Change password' })).toHaveCount(0)
    // The session survives a reload (the console's own Strict cookie).
    await grace.reload()
    await expect(grace.getByText('Signed in as grace')).toBeVisible()
    await graces.close()

    // The owner sees her in the team, her role given by the provider.
    const owners = await browser.newContext()
    const owner = await owners.newPage()
    await owner.goto(server.url)
    await owner.getByLabel('Password').fill(ADMIN_PASSWORD)
    await owner.getByRole('button', { name: 'Sign in', exact: true }).click()
    const team = owner.getByRole('region', { name: 'Team' })
    const row = team.getByRole('row').filter({ hasText: 'grace' })
    await expect(row).toContainText('single sign-on')
    await expect(row).toContainText('analyst (from the identity provider)')
    await expect(row.getByRole('combobox')).toHaveCount(0)
    await team.screenshot({ path: test.info().outputPath('team-with-provider.png') })
    await owners.close()
  } finally {
    await server.stop()
    await provider.stop()
    removeServerFiles(server)
  }
})
