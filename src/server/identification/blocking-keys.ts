import { hash } from 'node:crypto'
import { blockingGroups } from './component-model'
import type { Digests } from './fingerprint-profile'

/**
 * One indexed key per blocking group; a missing component is part of the key as "absent". The
 * groups are built around different anchors, so whatever one ordinary change touches, some key
 * still finds the device.
 */
export function blockingKeys(digests: Digests): string[] {
  return blockingGroups.map((group, index) => {
    const material = group.map((name) => `${name}=${digests[name] ?? '-'}`).join('|')
    return `${index}:${hash('sha256', material, 'base64url').slice(0, 22)}`
  })
}
