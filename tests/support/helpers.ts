import { readFileSync } from 'node:fs'
import type { APIRequestContext, Page } from '@playwright/test'
import { defaultSignupPolicy } from '../../src/contracts/signup-policy'
import { ADMIN_PASSWORD } from './e2e-constants'
import { signInFrom } from './raw-http'

export function serverLog(): string {
  const file = process.env.TESSERA_E2E_LOG
  if (!file) throw new Error('TESSERA_E2E_LOG is not set by the global setup')
  return readFileSync(file, 'utf8')
}

/** The default site's public key, as the console lists it (signs the request context in). */
export async function defaultSiteKey(request: APIRequestContext): Promise<string> {
  await signIn(request)
  const response = await request.get('/api/console/sites')
  if (!response.ok()) throw new Error(`listing sites failed: ${response.status()} ${await response.text()}`)
  const { sites } = (await response.json()) as { sites: { publicKey: string; isDefault: boolean }[] }
  const key = sites.find((site) => site.isDefault)?.publicKey
  if (!key) throw new Error('The console lists no default site')
  return key
}

/** Signs the request context in as the operator (its cookie jar keeps the session). */
export async function signIn(request: APIRequestContext) {
  const response = await request.post('/api/console/session', { data: { password: ADMIN_PASSWORD } })
  if (!response.ok()) throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`)
}

let helperSession: Promise<string> | undefined
/**
 * One operator session for the helpers, signed in once per worker from a loopback address of its
 * own: 127.0.0.1's sign-in budget (30 per 15 minutes) is what the specs' pages sign in with.
 */
function helperCookie(): Promise<string> {
  helperSession ??= signInFrom(Number(process.env.TESSERA_E2E_PORT ?? 3100), '127.0.5.1', ADMIN_PASSWORD)
  // A failed sign-in is not kept: the next helper call tries again.
  helperSession.catch(() => {
    helperSession = undefined
  })
  return helperSession
}

// Where this worker's sessions start among 127.0.6.1–250: Playwright starts a new worker after a
// failure, and one that began where the last did would spend the same addresses' budgets again.
let pageSessions = Math.floor(Math.random() * 250)
/**
 * Opens the console signed in as the operator without its form, the session signed in from a
 * loopback address of its own: 127.0.0.1's budget (30 attempts per 15 minutes, right or wrong) stays
 * for the specs whose subject is the sign-in form, and a retried spec does not spend it.
 */
export async function openSignedInConsole(page: Page) {
  const port = Number(process.env.TESSERA_E2E_PORT ?? 3100)
  const cookie = await signInFrom(port, `127.0.6.${(++pageSessions % 250) + 1}`, ADMIN_PASSWORD)
  const at = cookie.indexOf('=')
  await page
    .context()
    .addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: `http://127.0.0.1:${port}` }])
  await page.goto('/')
}

/** Replaces the sign-up policy (missing fields take their defaults). */
export async function setPolicy(request: APIRequestContext, policy: Record<string, unknown>) {
  const response = await request.put('/api/console/rules', {
    headers: { cookie: await helperCookie() },
    data: { ...defaultSignupPolicy, ...policy },
  })
  if (!response.ok()) throw new Error(`policy update failed: ${await response.text()}`)
}

/** Every rule switched off: each test switches on the one it is about. */
export const allRulesOff = {
  botRule: 'off',
  accountLimitRule: 'off',
  agentProofRule: 'off',
  tamperingRule: 'off',
  visitorAttemptsRule: 'off',
  ipAttemptsRule: 'off',
  suspectScoreRule: 'off',
} as const

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`
}
