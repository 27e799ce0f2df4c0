import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, expect, type Page, test } from '@playwright/test'
import { chromiumArgs, findChromium } from '../support/chromium'
import { signIn } from '../support/helpers'

async function visitorId(page: Page): Promise<string> {
  await page.goto('/device-fingerprint')
  const id = page.getByTestId('visitor-id')
  await expect(id).toHaveText(/^[\w-]{20}$/, { timeout: 15_000 })
  return (await id.textContent()) ?? ''
}

test('shows the visitor, confidence, signals with uniqueness, and the visit history', async ({ page }) => {
  await visitorId(page)
  await expect(page.getByTestId('confidence')).toHaveText(/^\d{1,3}%$/)
  await expect(page.getByRole('table').filter({ hasText: 'signals collected in' })).toBeVisible()
  await expect(page.getByText(/bits · 1 in \d+/).first()).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Visit history' })).toBeVisible()
  // How long collection held the page, in words that stay whole on a phone.
  const timing = page.getByText(/of it on the page's main thread, never more than/)
  await page.setViewportSize({ width: 390, height: 844 })
  await timing.scrollIntoViewIfNeeded()
  const box = await timing.boundingBox()
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true)
})

test('keeps the visitor ID after cookies and storage are cleared, and in a new context', async ({
  page,
  browser,
}) => {
  const first = await visitorId(page)
  await page.context().clearCookies()
  await page.evaluate(async () => {
    localStorage.clear()
    sessionStorage.clear()
    await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase('tessera')
      request.onsuccess = request.onerror = request.onblocked = resolve
    })
  })
  expect(await visitorId(page)).toBe(first)
  const fresh = await browser.newContext()
  expect(await visitorId(await fresh.newPage())).toBe(first)
  await fresh.close()
})

test('a new browser process with no storage and another time zone is the same visitor, matched by fingerprint', async ({
  baseURL,
}) => {
  // A device of its own, launched twice as separate processes with nothing stored in between.
  const launch = async (timezoneId: string) => {
    const process = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs })
    const context = await process.newContext({
      baseURL,
      timezoneId,
      locale: 'fi-FI',
      viewport: { width: 1234, height: 700 },
      screen: { width: 1234, height: 700 },
    })
    const page = await context.newPage()
    const id = await visitorId(page)
    const summary = await page.getByTestId('match-summary').textContent()
    await process.close()
    return { id, summary }
  }
  const home = await launch('Europe/Helsinki')
  const away = await launch('America/Chicago')
  expect(away.id).toBe(home.id)
  expect(away.summary).toMatch(/Recognised by its fingerprint alone/)
})

test('flags this Playwright-driven browser as a bad bot, with reasons', async ({ page }) => {
  await visitorId(page)
  const bot = page.getByTestId('signal-bot')
  await expect(bot).toContainText('Automation detected')
  await expect(bot).toContainText('controlled by automation')
  await expect(page.getByTestId('suspect-score')).not.toHaveText('0')
})

test('flags a browser whose navigator getters were overridden as tampered', async ({ browser }) => {
  const context = await browser.newContext()
  await context.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 64 })
    Object.defineProperty(Navigator.prototype, 'platform', { get: () => 'Win32' })
  })
  const page = await context.newPage()
  await visitorId(page)
  const tampering = page.getByTestId('signal-tampering')
  await expect(tampering).toContainText('Signs of tampering')
  await expect(tampering).toContainText('navigator.hardwareConcurrency')
  await expect(tampering).toContainText('the platform says Windows')
  await context.close()
})

test('"export my data" downloads the stored events as JSON', async ({ page }) => {
  const id = await visitorId(page)
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export my data (JSON)' }).click()
  const file = await (await download).path()
  const { readFileSync } = await import('node:fs')
  const data = JSON.parse(readFileSync(file, 'utf8'))
  expect(data.visitor.visitorId).toBe(id)
  expect(data.events.length).toBeGreaterThan(0)
  expect(data.events[0].components.canvas).toBeTruthy()
})

test('"forget this device" deletes every trace; the next visit is a new visitor', async ({
  browser,
  request,
}) => {
  // A device of its own (other tests' browsers share the default one): forgetting erases a
  // visitor whole only from the browser that created it.
  const context = await browser.newContext({
    timezoneId: 'Pacific/Chatham',
    locale: 'is-IS',
    viewport: { width: 1111, height: 777 },
    screen: { width: 1111, height: 777 },
    reducedMotion: 'reduce',
  })
  const page = await context.newPage()
  const id = await visitorId(page)
  // From the keyboard: the question focuses Cancel; Escape puts it away and focus goes back.
  const forget = page.getByRole('button', { name: 'Forget this device…' })
  await forget.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(forget).toBeFocused()
  await forget.click()
  await page.getByRole('button', { name: 'Yes, delete it' }).click()
  await expect(page.getByRole('heading', { name: 'This device was forgotten' })).toBeVisible()

  // The operator's look-up finds nothing left of it.
  await signIn(request)
  const lookup = await request.get(`/api/console/lookup?q=${id}`)
  expect(lookup.status()).toBe(404)

  await page.getByRole('button', { name: 'Check my device again' }).click()
  await expect(page.getByTestId('visitor-id')).toHaveText(/^[\w-]{20}$/, { timeout: 15_000 })
  await expect(page.getByTestId('visitor-id')).not.toHaveText(id)
  await expect(page.getByText('This is the first time this server has seen this device.')).toBeVisible()
  await context.close()
})

test('"forget this device" from a browser that did not create the visitor says what it erased', async ({
  browser,
  request,
}) => {
  const device = {
    timezoneId: 'Asia/Kathmandu',
    locale: 'mt-MT',
    viewport: { width: 1013, height: 701 },
    screen: { width: 1013, height: 701 },
    reducedMotion: 'reduce' as const,
  }
  const owner = await browser.newContext(device)
  const ownerPage = await owner.newPage()
  const id = await visitorId(ownerPage)
  await visitorId(ownerPage)
  // The same device with its storage gone: another browser, found by its fingerprint.
  const other = await browser.newContext(device)
  const otherPage = await other.newPage()
  expect(await visitorId(otherPage)).toBe(id)
  await otherPage.getByRole('button', { name: 'Forget this device…' }).click()
  await otherPage.getByRole('button', { name: 'Yes, delete it' }).click()
  await expect(otherPage.getByRole('heading', { name: "This browser's visits were deleted" })).toBeVisible()
  await expect(
    otherPage.getByText("This browser's 1 visit and its identifier have been deleted."),
  ).toBeVisible()
  await expect(otherPage.getByText('The visitor ID stays')).toBeVisible()

  // The owner's visits are all there, and the console's count agrees with its history.
  await signIn(request)
  const lookup = await request.get(`/api/console/lookup?q=${id}`)
  expect(lookup.status()).toBe(200)
  const found = await lookup.json()
  expect(found.events.length).toBe(2)
  expect(found.visits).toBe(2)
  expect(await visitorId(ownerPage)).toBe(id)
  await owner.close()
  await other.close()
})

test('a browser started from the command line, with no automation attached, is not flagged', async ({
  request,
}) => {
  // The control for the detectors: the same Chromium binary, launched as a person would (no
  // DevTools protocol, no WebDriver), with an ordinary user agent.
  const marker = `TesseraControl/${Date.now()}`
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 ${marker}`
  const profile = mkdtempSync(path.join(tmpdir(), 'tessera-control-'))
  const browser = spawn(
    findChromium(),
    [
      '--headless=new',
      ...chromiumArgs,
      `--user-data-dir=${profile}`,
      `--user-agent=${userAgent}`,
      `${test.info().project.use.baseURL}/device-fingerprint`,
    ],
    { detached: true },
  )
  try {
    await signIn(request)
    let event:
      | {
          userAgent: string
          signals: { bot: { result: string; reasons: string[] }; agentProof?: { result: string } }
        }
      | undefined
    await expect
      .poll(
        async () => {
          const page = await (await request.get('/api/console/events?signal=all')).json()
          event = page.events.find((entry: { userAgent: string }) => entry.userAgent?.includes(marker))
          return Boolean(event)
        },
        { timeout: 30_000 },
      )
      .toBe(true)
    expect(event?.signals.bot.result, JSON.stringify(event?.signals.bot.reasons)).toBe('notDetected')
    // Its headers agree with what its agent collected, every signal has its declared shape, and
    // the agent proved it ran (issue 27).
    expect(event?.signals.bot.reasons.join(' ')).not.toMatch(
      /header|shape|navigator|behaves like|ANGLE|WebGL/,
    )
    expect(event?.signals.agentProof?.result).toBe('valid')
  } finally {
    // The whole process group: Chromium's helper processes keep writing to the profile otherwise.
    const exited = new Promise((resolve) => browser.once('exit', resolve))
    if (browser.pid) process.kill(-browser.pid, 'SIGKILL')
    await exited
    await new Promise((resolve) => setTimeout(resolve, 300))
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
})
