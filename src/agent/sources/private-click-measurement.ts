import { UNSUPPORTED, type Unsupported } from '../unsupported'

/** Safari's Private Click Measurement attribute. */
export function privateClickMeasurement(): string | Unsupported {
  const link = document.createElement('a') as HTMLAnchorElement & {
    attributionSourceId?: number
    attributionsourceid?: number
  }
  const id = link.attributionSourceId ?? link.attributionsourceid
  return id === undefined ? UNSUPPORTED : String(id)
}
