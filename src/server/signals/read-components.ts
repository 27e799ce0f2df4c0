import type { SourceName } from '@/agent/sources'
import type { ComponentResult, Json } from '@/contracts/identify'

/** Typed, forgiving reads of the agent's components for the detectors, by the agent's own source names. */
export class ComponentReader {
  constructor(private readonly components: Record<string, ComponentResult>) {}

  value(name: SourceName): Json | undefined {
    const component = this.components[name]
    return component && 'value' in component ? component.value : undefined
  }

  string(name: SourceName): string | undefined {
    const value = this.value(name)
    return typeof value === 'string' && value !== 'unsupported' ? value : undefined
  }

  number(name: SourceName): number | undefined {
    const value = this.value(name)
    return typeof value === 'number' ? value : undefined
  }

  boolean(name: SourceName): boolean | undefined {
    const value = this.value(name)
    return typeof value === 'boolean' ? value : undefined
  }

  strings(name: SourceName): string[] {
    const value = this.value(name)
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []
  }

  field(name: SourceName, key: string): Json | undefined {
    const value = this.value(name)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value[key] : undefined
  }
}
