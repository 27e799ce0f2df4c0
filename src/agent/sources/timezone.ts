import { UNSUPPORTED, type Unsupported } from '../marker'

export function timezone(): string | Unsupported {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || UNSUPPORTED
}
