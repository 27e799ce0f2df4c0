import 'server-only'
import {
  componentShapes,
  MAX_COMPONENT_ERROR_LENGTH,
  MAX_STORED_COMPONENTS_BYTES,
} from '@/contracts/components'
import type { ComponentResult } from '@/contracts/identify'

export interface CheckedComponents {
  /** What may be stored and matched: the agent's own signals, each in its declared shape. */
  components: Record<string, ComponentResult>
  /** Names the agent does not collect, dropped. */
  unknown: string[]
  /** The agent's signals whose value had another shape or size, dropped (or over the stored cap). */
  offShape: string[]
}

const TOO_LARGE = 'Too large to store.'

/**
 * Holds a payload's components to the shapes the agent declares (contracts/components.ts): unknown
 * names and values of another shape are dropped rather than refusing the request (a fabricated
 * payload is recorded and judged, and a refusal would tell its author what to fix); error messages
 * are cut short; and if what is left still exceeds the stored cap, the largest values give way to
 * an error marker until it fits.
 */
export function checkComponents(sent: Record<string, ComponentResult>): CheckedComponents {
  const components: Record<string, ComponentResult> = {}
  const unknown: string[] = []
  const offShape: string[] = []
  for (const [name, result] of Object.entries(sent)) {
    if (!Object.hasOwn(componentShapes, name)) {
      unknown.push(name)
      continue
    }
    if ('error' in result) {
      components[name] = {
        error: result.error.slice(0, MAX_COMPONENT_ERROR_LENGTH),
        duration: result.duration,
      }
      continue
    }
    const shape = componentShapes[name as keyof typeof componentShapes]
    const checked = shape.safeParse(result.value)
    if (checked.success) components[name] = { value: checked.data, duration: result.duration }
    else offShape.push(name)
  }
  offShape.push(...capStoredSize(components))
  return { components, unknown, offShape }
}

/** Replaces the largest values by an error marker until the whole fits; returns their names. */
function capStoredSize(components: Record<string, ComponentResult>): string[] {
  let total = Buffer.byteLength(JSON.stringify(components))
  if (total <= MAX_STORED_COMPONENTS_BYTES) return []
  const largestFirst = Object.entries(components)
    .map(([name, result]) => [name, Buffer.byteLength(JSON.stringify(result))] as const)
    .sort(([, a], [, b]) => b - a)
  const replaced: string[] = []
  for (const [name, size] of largestFirst) {
    if (total <= MAX_STORED_COMPONENTS_BYTES) break
    const marker = { error: TOO_LARGE, duration: components[name]?.duration ?? 0 }
    components[name] = marker
    total -= size - Buffer.byteLength(JSON.stringify(marker))
    replaced.push(name)
  }
  return replaced
}
