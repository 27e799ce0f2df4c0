import { UNSUPPORTED, type Unsupported } from '../unsupported'

export function hardwareConcurrency(): number | Unsupported {
  return navigator.hardwareConcurrency || UNSUPPORTED
}
