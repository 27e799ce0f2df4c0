import { UNSUPPORTED, type Unsupported } from '../unsupported'

export function timezone(): string | Unsupported {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || UNSUPPORTED
}
