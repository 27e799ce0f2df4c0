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
