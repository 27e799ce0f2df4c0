import { expect, test } from '@playwright/test'
import { EXTRA_SERVER_PORTS } from '../support/e2e-constants'
import { type RunningServer, removeServerFiles, startTesseraServer } from '../support/tessera-server'

// A Tessera of its own: wrong passwords here must not spend the shared server's account budget,
// which every other spec's sign-in relies on.
const PASSWORD = 'e2e throttle lantern harbour'
let server: RunningServer

test.beforeAll(async () => {
  server = await startTesseraServer({
    port: EXTRA_SERVER_PORTS.passwordThrottle,
    env: { TESSERA_ADMIN_PASSWORD: PASSWORD, TESSERA_CHALLENGE_DIFFICULTY: '5000' },
  })
})
test.afterAll(async () => {
  await server?.stop()
  if (server) removeServerFiles(server)
})

test('wrong current passwords in "change password" bring waits, then a puzzle the form solves', async ({
  page,
}) => {
  await page.goto(server.url)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Change password' }).click()
  const current = page.getByLabel('Current password')
  const attempt = async (password: string) => {
    await current.fill(password)
    await page.getByLabel('New password').fill('quartz-ember-harbour-51')
    await page.getByRole('button', { name: 'Save new password' }).click()
  }
  await attempt('not it')
  await expect(current).toHaveAccessibleDescription(/The current password is not right/)
  // Waits grow: 1 s after the first, then 2 s (the unit tests count the refusals in between).
  await page.waitForTimeout(1_100)
  await attempt('still not it')
  await expect(current).toHaveAccessibleDescription(/The current password is not right/)
  await page.waitForTimeout(2_100)
  await attempt('nor this')
  // The third wrong password: the form explains, solves the puzzle, and keeps the button until then.
  await expect(page.getByTestId('password-puzzle')).toContainText('each attempt first needs a puzzle')
  await expect(page.getByText('Puzzle solved. You can try again.')).toBeVisible({ timeout: 15_000 })
  await page.waitForTimeout(4_100)
  await attempt(PASSWORD)
  await expect(page.getByText('Password changed. Every other session is signed out.')).toBeVisible()
})
