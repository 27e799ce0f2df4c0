import { UNSUPPORTED, type Unsupported } from '../unsupported'

type NetworkInformation = { rtt?: number; effectiveType?: string; saveData?: boolean }

/** Network hints; a zero round-trip time is typical of headless browsers. */
export function connection(): { rtt: number | null; type: string | null; saveData: boolean } | Unsupported {
  const info = (navigator as Navigator & { connection?: NetworkInformation }).connection
  if (!info) return UNSUPPORTED
  return { rtt: info.rtt ?? null, type: info.effectiveType ?? null, saveData: info.saveData ?? false }
}
