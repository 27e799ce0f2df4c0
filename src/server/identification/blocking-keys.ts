import { hash } from 'node:crypto'
import { blockingGroups } from './component-model'
import type { Digests } from './fingerprint-profile'

/** The workspace of Tessera's own pages, and of every site until the operator splits them. */
export const DEFAULT_WORKSPACE = 'default'

/**
 * One indexed key per blocking group; a missing component is part of the key as "absent". The
 * groups are built around different anchors, so whatever one ordinary change touches, some key
 * still finds the device. Keys belong to a workspace: a device is found only among its visitors.
 */
export function blockingKeys(digests: Digests, workspace: string = DEFAULT_WORKSPACE): string[] {
  return blockingGroups.map((group, index) => {
    const material = `${workspace}|${group.map((name) => `${name}=${digests[name] ?? '-'}`).join('|')}`
    return `${index}:${hash('sha256', material, 'base64url').slice(0, 22)}`
  })
}

/**
 * A stored device's keys: its latest fingerprint's and those of the fingerprint before its recent
 * changes (each changed component at the value it had just before, from `previous`), so a device
 * that goes back (light mode again, home from a trip) is found by what it showed then, as the
 * scoring counts a value it showed before (MODEL.md).
 */
export function deviceKeys(
  digests: Digests,
  previous: Readonly<Record<string, readonly string[]>>,
  workspace: string = DEFAULT_WORKSPACE,
): string[] {
  const before: Digests = { ...digests }
  for (const [name, values] of Object.entries(previous)) if (values[0] !== undefined) before[name] = values[0]
  return [...new Set([...blockingKeys(digests, workspace), ...blockingKeys(before, workspace)])]
}
