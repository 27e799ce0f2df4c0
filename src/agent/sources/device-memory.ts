import { UNSUPPORTED, type Unsupported } from '../unsupported'

export function deviceMemory(): number | Unsupported {
  return (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? UNSUPPORTED
}
