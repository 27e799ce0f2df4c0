import { UNSUPPORTED, type Unsupported } from '../unsupported'

/** The storage quota in MiB: private windows get a small, memory-bound one. */
export async function storageQuota(): Promise<number | Unsupported> {
  if (!navigator.storage?.estimate) return UNSUPPORTED
  const { quota } = await navigator.storage.estimate()
  return quota === undefined ? UNSUPPORTED : Math.round(quota / 1_048_576)
}
