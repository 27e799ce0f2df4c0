import 'server-only'
import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, ne, sql } from 'drizzle-orm'
import type { Role } from '@/contracts/roles'
import type { Database } from '../db/client'
import { operatorSessions, operators } from '../db/schema'
import { buildCookie, clearCookie, hostOnlyName, readCookie } from '../http/cookies'
import { HttpError } from '../http/errors'

/**
 * The console session's cookie, `__Host-tessera_session` over HTTPS (hostOnlyName): a sibling
 * subdomain cannot plant a session of its choosing in an operator's browser.
 */
export const SESSION_COOKIE = 'tessera_session'
const sessionCookieName = (request: { headers: Headers; url?: string }) =>
  hostOnlyName(request, SESSION_COOKIE)
export const SESSION_HOURS = 12

export interface Operator {
  id: string
  username: string
  role: Role
  /** Signs in through the OpenID Connect provider (read with the session). */
  singleSignOn?: boolean
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

export async function createSession({ db, operatorId }: { db: Database; operatorId: string }) {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(Date.now() + SESSION_HOURS * 3600_000)
  await db
    .insert(operatorSessions)
    .values({ tokenHash: hashToken(token), operatorId, expiresAt: expiresAt.toISOString() })
  return { token, expiresAt }
}

/** The operator behind a session token, while the session has not expired. */
export async function readSession({
  db,
  token,
}: {
  db: Database
  token?: string
}): Promise<Operator | undefined> {
  if (!token) return undefined
  const [operator] = await db
    .select({
      id: operators.id,
      username: operators.username,
      role: operators.role,
      singleSignOn: sql<boolean>`${operators.oidcSubject} is not null`,
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(and(eq(operatorSessions.tokenHash, hashToken(token)), gt(operatorSessions.expiresAt, sql`now()`)))
  return operator
}

export async function endSession({ db, token }: { db: Database; token?: string }) {
  if (token) await db.delete(operatorSessions).where(eq(operatorSessions.tokenHash, hashToken(token)))
}

/** Signs an operator out everywhere but the session `keepToken` belongs to. */
export async function endOtherSessions({
  db,
  operatorId,
  keepToken,
}: {
  db: Database
  operatorId: string
  keepToken?: string
}) {
  await db
    .delete(operatorSessions)
    .where(
      and(
        eq(operatorSessions.operatorId, operatorId),
        ne(operatorSessions.tokenHash, keepToken ? hashToken(keepToken) : ''),
      ),
    )
}

/** The session token the request carries, under the one name its scheme allows. */
export function sessionTokenOf(request: { headers: Headers; url?: string }): string | undefined {
  return readCookie(request, sessionCookieName(request))
}

/** Every console endpoint starts here: 401 without a live session. */
export async function requireOperator(db: Database, request: Request): Promise<Operator> {
  const operator = await readSession({ db, token: sessionTokenOf(request) })
  if (!operator) throw new HttpError('unauthorized', 'Sign in to the console first.')
  return operator
}

/** The console session: sent only from Tessera's own pages, ending with the session. */
export function sessionCookie(request: Request, token: string, expiresAt: Date): string {
  return buildCookie(request, sessionCookieName(request), token, { expires: expiresAt, reach: 'strict' })
}

export function clearedSessionCookie(request: Request): string {
  return clearCookie(request, sessionCookieName(request), 'strict')
}
