import { hash } from 'node:crypto'
import type { ComponentResult, Json } from '@/contracts/identify'
import { isIdentifying } from './component-weights'

/** Component name → short digest of its value; what matching and statistics compare. */
export type Digests = Record<string, string>

/** JSON with object keys sorted, so equal values always digest equally. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort()
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export function digestValue(value: Json): string {
  return hash('sha256', canonicalJson(value), 'base64url').slice(0, 16)
}

/**
 * Privacy browsers add noise to canvas/audio; the agent renders twice and marks such values.
 * A randomised value says nothing stable about the device, so it is left out of matching.
 */
export function isRandomised(value: Json): boolean {
  if (value === 'randomized' || value === 'randomised') return true
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    (value.randomized === true || value.stable === false)
  )
}

/** Digests of the components that can identify a device: no errors, no randomised values, no momentary ones. */
export function digestComponents(components: Record<string, ComponentResult>): Digests {
  const digests: Digests = {}
  for (const [name, result] of Object.entries(components)) {
    if (!('value' in result) || isRandomised(result.value) || !isIdentifying(name)) continue
    digests[name] = digestValue(result.value)
  }
  return digests
}
