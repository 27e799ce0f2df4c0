import 'server-only'

/**
 * One value per process, kept on globalThis under a registered symbol. Next.js may load a module
 * in more than one bundle, and scripts/serve.mjs loads a bundle of its own (the identify route),
 * yet the database, its queues and the caches in front of it must exist once.
 */
export function processWide<Value>(name: string, create: () => Value): Value {
  const store = globalThis as Record<symbol, unknown>
  const key = Symbol.for(`tessera.${name}`)
  if (!(key in store)) store[key] = create()
  return store[key] as Value
}
