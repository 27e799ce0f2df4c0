import { z } from 'zod'

/**
 * What an operator may do, each role everything the one before may: an analyst reads, labels and
 * reviews; an admin also runs sites, keys, lists, rules and webhooks; an owner also runs the team.
 */
export const Role = z.enum(['analyst', 'admin', 'owner'])
export type Role = z.infer<typeof Role>

const rank: Record<Role, number> = { analyst: 0, admin: 1, owner: 2 }

/** Whether `role` may do what `needed` may. */
export function allows(role: Role, needed: Role): boolean {
  return rank[role] >= rank[needed]
}

/** The roles in words, as the console names them. */
export const roleWords: Record<Role, string> = {
  analyst: 'Analyst: reads everything, labels visitors and accounts, reviews sign-ups',
  admin: 'Admin: also sites, keys, lists, rules and webhooks',
  owner: 'Owner: also the team',
}
