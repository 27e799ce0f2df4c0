import { UNSUPPORTED, type Unsupported } from '../marker'

export function deviceMemory(): number | Unsupported {
  return (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? UNSUPPORTED
}
