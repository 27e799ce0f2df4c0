import { hash } from 'node:crypto'
import { blockingGroups, settings } from './component-model'
import type { Digests } from './fingerprint-profile'

/** The workspace of Tessera's own pages, and of every site until the operator splits them. */
export const DEFAULT_WORKSPACE = 'default'

/**
 * One indexed key per blocking group; a missing component is part of the key as "absent". The
 * groups are built around different anchors, so whatever one ordinary change touches, some key
 * still finds the device. Keys belong to a workspace: a device is found only among its visitors.
 */
export function blockingKeys(digests: Digests, workspace: string = DEFAULT_WORKSPACE): string[] {
  return blockingGroups.map((group, index) => groupKey(index, group, digests, workspace))
}

function groupKey(index: number, group: readonly string[], digests: Digests, workspace: string): string {
  const material = `${workspace}|${group.map((name) => `${name}=${digests[name] ?? '-'}`).join('|')}`
  return `${index}:${hash('sha256', material, 'base64url').slice(0, 22)}`
}

/**
 * A group's keys for every mix of its settings' latest and earlier values: 2^3 − 1 at most beside
 * its latest and before keys, so a device holds at most 13 + 13 + 10 · 7 = 96 keys (84 when only
 * settings changed; a group holding more changed settings keeps its latest and before keys alone).
 */
const MAX_MIXED_SETTINGS = 3

/**
 * A stored device's keys: its latest fingerprint's; those of the fingerprint before its recent
 * changes (each changed component at the value it had just before, from `previous`); and, for
 * each group, every mix of latest and earlier values of the settings it holds (settings: the
 * language, the time zone, the colour scheme, the fonts, the display), its hardware as latest. A
 * device that switches settings back and forth (dark mode on Monday; off again and a font
 * installed on Tuesday) shows each setting at one of the values it had, in any mix: a key whose
 * settings all hold one of them still finds it, as the scoring counts a value it showed before
 * (MODEL.md).
 */
export function deviceKeys(
  digests: Digests,
  previous: Readonly<Record<string, readonly string[]>>,
  workspace: string = DEFAULT_WORKSPACE,
): string[] {
  const before: Digests = { ...digests }
  for (const [name, values] of Object.entries(previous)) if (values[0] !== undefined) before[name] = values[0]
  const keys = new Set([...blockingKeys(digests, workspace), ...blockingKeys(before, workspace)])
  blockingGroups.forEach((group, index) => {
    const changed = settings.filter((unit) =>
      unit.some((name) => group.includes(name) && previous[name]?.[0] !== undefined),
    )
    if (changed.length === 0 || changed.length > MAX_MIXED_SETTINGS) return
    for (let mix = 1; mix < 2 ** changed.length; mix++) {
      const mixed: Digests = { ...digests }
      changed.forEach((unit, at) => {
        if (!(mix & (2 ** at))) return
        for (const name of unit) {
          const earlier = before[name]
          if (earlier !== undefined) mixed[name] = earlier
        }
      })
      keys.add(groupKey(index, group, mixed, workspace))
    }
  })
  return [...keys]
}
