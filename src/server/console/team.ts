import 'server-only'
import { createHash, randomBytes } from 'node:crypto'
import { hash } from '@node-rs/argon2'
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Team } from '@/contracts/console'
import type { Role } from '@/contracts/roles'
import { type Database, violatedConstraint } from '../db/client'
import { operatorInvitations, operators, settingsAudit } from '../db/schema'
import { HttpError } from '../http/errors'
import type { Operator } from './sessions'

/** How long an invitation link works. */
export const INVITATION_DAYS = 7
const TEAM_AUDIT = 'team'

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

/** The operators and the open invitations, oldest first. */
export async function readTeam({ db, you }: { db: Database; you: Operator }): Promise<Team> {
  const [members, invitations] = await Promise.all([
    db
      .select({
        id: operators.id,
        username: operators.username,
        role: operators.role,
        createdAt: operators.createdAt,
        singleSignOn: sql<boolean>`${operators.oidcSubject} is not null`,
      })
      .from(operators)
      .orderBy(asc(operators.createdAt)),
    db
      .select({
        id: operatorInvitations.id,
        role: operatorInvitations.role,
        createdBy: operatorInvitations.createdBy,
        createdAt: operatorInvitations.createdAt,
        expiresAt: operatorInvitations.expiresAt,
      })
      .from(operatorInvitations)
      .where(and(isNull(operatorInvitations.acceptedAt), gt(operatorInvitations.expiresAt, sql`now()`)))
      .orderBy(asc(operatorInvitations.createdAt)),
  ])
  return { operators: members.map((member) => ({ ...member, you: member.id === you.id })), invitations }
}

/** A new invitation for `role`; its token is answered once and only its hash is kept. */
export async function inviteOperator({ db, role, by }: { db: Database; role: Role; by: Operator }) {
  const token = randomBytes(24).toString('base64url')
  const id = `inv_${randomBytes(9).toString('base64url')}`
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000).toISOString()
  await db.transaction(async (tx) => {
    await tx
      .insert(operatorInvitations)
      .values({ id, tokenHash: hashToken(token), role, createdBy: by.username, expiresAt })
    await auditTeam(tx, by, null, { invitation: id, role })
  })
  return { id, token, expiresAt }
}

export async function revokeInvitation({
  db,
  invitationId,
  by,
}: {
  db: Database
  invitationId: string
  by: Operator
}) {
  const deleted = await db
    .delete(operatorInvitations)
    .where(and(eq(operatorInvitations.id, invitationId), isNull(operatorInvitations.acceptedAt)))
    .returning({ role: operatorInvitations.role })
  if (deleted.length === 0) throw new HttpError('not_found', 'No open invitation has this ID.')
  await auditTeam(
    db,
    by,
    { invitation: invitationId, role: deleted[0]?.role },
    { invitation: invitationId, revoked: true },
  )
}

/**
 * The invited person joins: a live, unused invitation becomes an operator of its role, in one
 * transaction (a link works once, even clicked twice at once). 404 for a token that is unknown,
 * used or expired (one answer for all three); 409 with a field error for a name already taken.
 */
export async function acceptInvitation({
  db,
  token,
  username,
  password,
}: {
  db: Database
  token: string
  username: string
  password: string
}): Promise<{ operatorId: string }> {
  // An unknown token is refused before the password is hashed: argon2's cost is not anyone's to spend.
  const [live] = await db
    .select({ id: operatorInvitations.id })
    .from(operatorInvitations)
    .where(
      and(
        eq(operatorInvitations.tokenHash, hashToken(token)),
        isNull(operatorInvitations.acceptedAt),
        gt(operatorInvitations.expiresAt, sql`now()`),
      ),
    )
  if (!live)
    throw new HttpError('not_found', 'This invitation is unknown, used or expired: ask for a new one.')
  const passwordHash = await hash(password)
  try {
    return await db.transaction(async (tx) => {
      const [invitation] = await tx
        .update(operatorInvitations)
        .set({ acceptedAt: sql`now()`, acceptedBy: username })
        .where(
          and(
            eq(operatorInvitations.tokenHash, hashToken(token)),
            isNull(operatorInvitations.acceptedAt),
            gt(operatorInvitations.expiresAt, sql`now()`),
          ),
        )
        .returning({ id: operatorInvitations.id, role: operatorInvitations.role })
      if (!invitation)
        throw new HttpError('not_found', 'This invitation is unknown, used or expired: ask for a new one.')
      const operatorId = `op_${randomBytes(9).toString('base64url')}`
      await tx.insert(operators).values({ id: operatorId, username, passwordHash, role: invitation.role })
      await tx.insert(settingsAudit).values({
        key: TEAM_AUDIT,
        operator: username,
        before: { invitation: invitation.id },
        after: { joined: username, role: invitation.role },
      })
      return { operatorId }
    })
  } catch (error) {
    if (violatedConstraint(error) === 'operators_username_unique')
      throw new HttpError('conflict', 'Some fields need attention.', {
        fields: { username: 'This name is taken: choose another.' },
      })
    throw error
  }
}

/** Gives an operator another role; never leaves the team without an owner (409). */
export async function changeRole({
  db,
  operatorId,
  role,
  by,
}: {
  db: Database
  operatorId: string
  role: Role
  by: Operator
}) {
  await db.transaction(async (tx) => {
    const member = await lockedMember(tx, operatorId)
    if (member.singleSignOn)
      throw new HttpError(
        'conflict',
        `${member.username} signs in through the identity provider, which gives the role at every sign-in: change it there.`,
      )
    if (member.role === 'owner' && role !== 'owner') await assertAnotherOwner(tx)
    await tx.update(operators).set({ role }).where(eq(operators.id, operatorId))
    // An owner no more: the links they made (for any role) stop working with their say.
    if (member.role === 'owner' && role !== 'owner') await withdrawInvitationsBy(tx, member.username)
    await auditTeam(
      tx,
      by,
      { operator: member.username, role: member.role },
      { operator: member.username, role },
    )
  })
}

/** Removes an operator (their sessions end with them); not yourself, never the last owner (409). */
export async function removeOperator({
  db,
  operatorId,
  by,
}: {
  db: Database
  operatorId: string
  by: Operator
}) {
  if (operatorId === by.id) throw new HttpError('conflict', 'You cannot remove yourself: ask another owner.')
  await db.transaction(async (tx) => {
    const member = await lockedMember(tx, operatorId)
    if (member.role === 'owner') await assertAnotherOwner(tx)
    await tx.delete(operators).where(eq(operators.id, operatorId))
    // A removed operator's links would let them back in: withdrawn with them.
    await withdrawInvitationsBy(tx, member.username)
    await auditTeam(
      tx,
      by,
      { operator: member.username, role: member.role },
      { operator: member.username, removed: true },
    )
  })
}

/**
 * The operator about to change, read under the team's lock: one change of the owners at a time, so
 * two owners cannot demote or remove each other at once. 404 for an unknown operator.
 */
async function lockedMember(tx: Database, operatorId: string) {
  await lockTeam(tx)
  const [member] = await tx
    .select({
      username: operators.username,
      role: operators.role,
      singleSignOn: sql<boolean>`${operators.oidcSubject} is not null`,
    })
    .from(operators)
    .where(eq(operators.id, operatorId))
  if (!member) throw new HttpError('not_found', 'No operator has this ID.')
  return member
}

/** Withdraws the open invitations `username` made (they are removed, or no longer an owner). */
export async function withdrawInvitationsBy(db: Database, username: string) {
  await db
    .delete(operatorInvitations)
    .where(and(eq(operatorInvitations.createdBy, username), isNull(operatorInvitations.acceptedAt)))
}

async function assertAnotherOwner(db: Database) {
  const owners = await db.$count(operators, eq(operators.role, 'owner'))
  if (owners <= 1) throw new HttpError('conflict', 'The team needs an owner: make someone else owner first.')
}

/** The team's lock, until the transaction ends: one change of roles and members at a time. */
export async function lockTeam(tx: Database) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('team-owners', 0))`)
}

/** A team change in the audit trail, by an operator or by the identity provider (its name). */
export async function auditTeam(db: Database, by: Operator | string, before: unknown, after: unknown) {
  const operator = typeof by === 'string' ? by : by.username
  await db.insert(settingsAudit).values({ key: TEAM_AUDIT, operator, before, after })
}
