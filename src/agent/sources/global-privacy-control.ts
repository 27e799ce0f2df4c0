import { UNSUPPORTED, type Unsupported } from '../marker'

export function globalPrivacyControl(): boolean | Unsupported {
  return (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl ?? UNSUPPORTED
}
