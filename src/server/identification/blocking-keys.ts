import { hash } from 'node:crypto'
import { blockingGroups } from './component-weights'
import type { Digests } from './digest-components'

/** One indexed key per blocking group; a missing component is part of the key as "absent". */
export function blockingKeys(digests: Digests): string[] {
  return blockingGroups.map((group, index) => {
    const material = group.map((name) => `${name}=${digests[name] ?? '-'}`).join('|')
    return `${index}:${hash('sha256', material, 'base64url').slice(0, 22)}`
  })
}
