import { UNSUPPORTED, type Unsupported } from '../unsupported'

export function globalPrivacyControl(): boolean | Unsupported {
  return (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl ?? UNSUPPORTED
}
