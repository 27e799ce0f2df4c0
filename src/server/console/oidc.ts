import 'server-only'
import { createHash, randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import * as client from 'openid-client'
import { z } from 'zod'
import { Role } from '@/contracts/roles'
import type { Database } from '../db/client'
import { operatorSessions, operators } from '../db/schema'
import { type Env, getEnv } from '../env'
import { buildCookie, clearCookie, hostOnlyName, readCookie } from '../http/cookies'
import { ownOrigin } from '../http/public-origin'
import { log } from '../log'
import { processWide } from '../process-wide'
import { createSession } from './sessions'
import { auditTeam, lockTeam, withdrawInvitationsBy } from './team'

/** Sign-in with an OpenID Connect provider, when one is configured (TESSERA_OIDC_*). */
export interface OidcSettings {
  issuer: URL
  clientId: string
  clientSecret?: string
  /** "Sign in with <name>". */
  name: string
  roleClaim: string
  roleMap: readonly (readonly [string, Role])[]
}

export function oidcSettings(env: Env = getEnv()): OidcSettings | undefined {
  if (!env.TESSERA_OIDC_ISSUER || !env.TESSERA_OIDC_CLIENT_ID) return undefined
  const issuer = new URL(env.TESSERA_OIDC_ISSUER)
  return {
    issuer,
    clientId: env.TESSERA_OIDC_CLIENT_ID,
    clientSecret: env.TESSERA_OIDC_CLIENT_SECRET,
    name: env.TESSERA_OIDC_NAME ?? issuer.hostname,
    roleClaim: env.TESSERA_OIDC_ROLE_CLAIM,
    roleMap: env.TESSERA_OIDC_ROLE_MAP,
  }
}

const STRONGEST_FIRST = [...Role.options].reverse()

/**
 * The role a person's claims give: the claim's value, or each value of a list, read through the
 * role map (or as a role name without one); the highest wins. Undefined when none maps: refused.
 */
export function roleFromClaims(claims: Record<string, unknown>, settings: OidcSettings): Role | undefined {
  const raw = claims[settings.roleClaim]
  const values = (Array.isArray(raw) ? raw : [raw]).filter(
    (value): value is string => typeof value === 'string',
  )
  const roles = values.flatMap((value) =>
    settings.roleMap.length > 0
      ? settings.roleMap.filter(([claimed]) => claimed === value).map(([, role]) => role)
      : Role.options.filter((role) => role === value),
  )
  return STRONGEST_FIRST.find((role) => roles.includes(role))
}

/**
 * The cookie that carries one sign-in from Tessera to the provider and back (10 minutes). Over
 * HTTPS its name has the __Host- prefix: a sibling subdomain cannot set one of its own for the
 * callback to read (a page on another port of the same host still can over plain HTTP).
 */
const flowCookie = (request: Request) => hostOnlyName(request, 'tessera_oidc')
const FLOW_SECONDS = 600
const Flow = z.object({
  state: z.string().max(100),
  nonce: z.string().max(100),
  verifier: z.string().max(200),
})

/** Why a sign-in came back refused; the sign-in form says each in words (`/#sso-error=<why>`). */
export type OidcFailure = 'expired' | 'refused' | 'no-role' | 'last-owner' | 'unavailable'

export class OidcSignInError extends Error {
  constructor(
    readonly why: OidcFailure,
    detail: string,
  ) {
    super(detail)
  }
}

/** The provider's metadata, discovered once per process (again after a failure). */
const discoveries = () => processWide('oidcDiscovery', () => new Map<string, Promise<client.Configuration>>())

function configurationOf(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer.href} ${settings.clientId}`
  const known = discoveries().get(key)
  if (known) return known
  const configuration = client
    .discovery(
      settings.issuer,
      settings.clientId,
      settings.clientSecret,
      settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None(),
      {
        // env.ts allows plain http only for a provider on this machine.
        execute: settings.issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
        timeout: 10,
      },
    )
    .catch((error: unknown) => {
      discoveries().delete(key)
      throw new OidcSignInError(
        'unavailable',
        `Discovery at ${settings.issuer.href} failed: ${String(error)}`,
      )
    })
  discoveries().set(key, configuration)
  return configuration
}

const redirectUri = (request: Request) => `${ownOrigin(request)}/api/sign-in/oidc/callback`

/**
 * The start of a sign-in: the provider's authorization URL (code flow with PKCE, a state and a
 * nonce), and the cookie that remembers them. SameSite=Lax, because the provider's redirect back
 * is a top-level navigation from another site, which a Strict cookie would not follow.
 */
export async function beginOidcSignIn(request: Request, settings: OidcSettings) {
  const configuration = await configurationOf(settings)
  const flow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
  }
  const location = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri(request),
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  })
  const value = Buffer.from(JSON.stringify(flow)).toString('base64url')
  return {
    location: location.href,
    cookie: buildCookie(request, flowCookie(request), value, { maxAge: FLOW_SECONDS, reach: 'navigation' }),
  }
}

export const clearedFlowCookie = (request: Request) => clearCookie(request, flowCookie(request), 'navigation')

function flowOf(request: Request) {
  try {
    const raw = readCookie(request, flowCookie(request))
    return raw ? Flow.parse(JSON.parse(Buffer.from(raw, 'base64url').toString())) : undefined
  } catch {
    return undefined
  }
}

/**
 * The provider's answer: the code exchanged (state, nonce and PKCE checked by openid-client), the
 * person's claims read from the ID token and userinfo, their role mapped, their operator made or
 * updated; a new console session for them.
 */
export async function finishOidcSignIn({
  db,
  request,
  settings,
}: {
  db: Database
  request: Request
  settings: OidcSettings
}) {
  const query = new URL(request.url).searchParams
  const flow = flowOf(request)
  if (!flow)
    throw new OidcSignInError(
      'expired',
      'No sign-in was started in this browser, or it took over 10 minutes.',
    )
  if (query.has('error'))
    throw new OidcSignInError('refused', `The provider answered ${query.get('error')?.slice(0, 100)}.`)
  const configuration = await configurationOf(settings)
  // The URL the provider sent the browser to, whatever address the request reached this process on.
  const current = new URL(redirectUri(request))
  current.search = query.toString()
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>
  try {
    tokens = await client.authorizationCodeGrant(configuration, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    })
  } catch (error) {
    const why = unreachable(error) ? 'unavailable' : 'refused'
    throw new OidcSignInError(why, `The code exchange failed: ${String(error)}`)
  }
  const idClaims = tokens.claims()
  if (!idClaims) throw new OidcSignInError('refused', 'The provider sent no ID token.')
  let claims: Record<string, unknown> = { ...idClaims }
  const incomplete =
    roleFromClaims(claims, settings) === undefined || typeof claims.preferred_username !== 'string'
  if (incomplete && tokens.access_token) {
    // Many providers put groups, roles and names only in userinfo.
    try {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub)
      claims = { ...info, ...idClaims }
    } catch (error) {
      if (unreachable(error)) throw new OidcSignInError('unavailable', `Userinfo failed: ${String(error)}`)
      log.warn({ err: error }, 'the identity provider refused its userinfo')
    }
  }
  const issuer = String(idClaims.iss)
  const role = roleFromClaims(claims, settings)
  if (!role) {
    // Someone the provider no longer gives a role: their open sessions end here too.
    await endSessionsOf(db, issuer, idClaims.sub)
    throw new OidcSignInError('no-role', `${idClaims.sub} has no Tessera role in ${settings.roleClaim}.`)
  }
  const operatorId = await upsertOidcOperator({
    db,
    issuer,
    subject: idClaims.sub,
    wantedName: nameOf(claims),
    role,
    by: `${settings.name} (single sign-on)`,
  })
  return createSession({ db, operatorId })
}

/** A failure to reach the provider (a refused connection, DNS, a time-out), not an answer from it. */
function unreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause.name === 'AbortError' || cause.name === 'TimeoutError') return true
    if (cause instanceof TypeError && cause.message === 'fetch failed') return true
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true
  }
  return false
}

async function endSessionsOf(db: Database, issuer: string, subject: string) {
  const [known] = await db
    .select({ id: operators.id })
    .from(operators)
    .where(and(eq(operators.oidcIssuer, issuer), eq(operators.oidcSubject, subject)))
  if (known) await db.delete(operatorSessions).where(eq(operatorSessions.operatorId, known.id))
}

/**
 * A console username from the claims: preferred_username, else email, else the subject; plain
 * ASCII after NFKC, so that a look-alike of another operator's name (a Cyrillic "а") cannot pass for it.
 */
function nameOf(claims: Record<string, unknown>): string {
  const first = [claims.preferred_username, claims.email, claims.sub].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  )
  const cleaned = (first ?? 'operator')
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._@-]+/g, '-')
    .slice(0, 48)
  return cleaned.length >= 2 ? cleaned : `operator-${cleaned}`
}

/**
 * The operator for (issuer, subject), made at the first sign-in; their role follows the provider
 * at every sign-in (a change is audited as the provider's). A username another operator holds is
 * never taken over: the new one gets a suffix from its subject.
 */
export async function upsertOidcOperator({
  db,
  issuer,
  subject,
  wantedName,
  role,
  by,
}: {
  db: Database
  issuer: string
  subject: string
  wantedName: string
  role: Role
  by: string
}): Promise<string> {
  return db.transaction(async (tx) => {
    // The same lock as team changes: a role from the provider and an owner's change do not cross.
    await lockTeam(tx)
    const [known] = await tx
      .select({ id: operators.id, username: operators.username, role: operators.role })
      .from(operators)
      .where(and(eq(operators.oidcIssuer, issuer), eq(operators.oidcSubject, subject)))
    if (known) {
      if (known.role !== role) {
        if (known.role === 'owner') {
          // The team keeps an owner: the provider's demotion of the last one waits for another.
          if ((await tx.$count(operators, eq(operators.role, 'owner'))) <= 1)
            throw new OidcSignInError(
              'last-owner',
              `${known.username} is the last owner; the provider gives ${role}.`,
            )
          // An owner no more: the links they made stop working with their say.
          await withdrawInvitationsBy(tx, known.username)
        }
        await tx.update(operators).set({ role }).where(eq(operators.id, known.id))
        await auditTeam(
          tx,
          by,
          { operator: known.username, role: known.role },
          { operator: known.username, role },
        )
      }
      return known.id
    }
    const taken = (await tx.$count(operators, eq(operators.username, wantedName))) > 0
    const suffix = createHash('sha256').update(`${issuer} ${subject}`).digest('hex').slice(0, 6)
    const username = taken ? `${wantedName}~${suffix}` : wantedName
    const id = `op_${randomBytes(9).toString('base64url')}`
    await tx
      .insert(operators)
      .values({ id, username, passwordHash: null, role, oidcIssuer: issuer, oidcSubject: subject })
    await auditTeam(tx, by, null, { operator: username, role, joined: 'single sign-on' })
    log.info({ operator: username, role }, 'an operator joined through single sign-on')
    return id
  })
}
