import { type Component, collect } from '../../src/agent/collect'
import { type SourceName, sources } from '../../src/agent/sources'

/**
 * What collect() records for one registered source: `{ value, duration }` or `{ error, duration }`.
 * Every other source is replaced by an inert one, so only the named source reads the mocked browser.
 */
export async function collectComponent(name: SourceName): Promise<Component<unknown>> {
  const inert = Object.fromEntries(
    Object.keys(sources)
      .filter((other) => other !== name)
      .map((other) => [other, () => null]),
  )
  const { components } = await collect({ sources: inert, sourceTimeout: 200, deadline: 500 })
  return components[name]
}

/** A stepped source (a generator, see collect.ts) run to its end at once: its value. */
export function runSteps<Value>(steps: Generator<unknown, Value, unknown>): Value {
  let step = steps.next()
  while (!step.done) step = steps.next()
  return step.value
}
