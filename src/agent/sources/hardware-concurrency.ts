import { UNSUPPORTED, type Unsupported } from '../marker'

export function hardwareConcurrency(): number | Unsupported {
  return navigator.hardwareConcurrency || UNSUPPORTED
}
