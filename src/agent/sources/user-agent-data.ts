import { UNSUPPORTED, type Unsupported } from '../unsupported'

interface HighEntropy {
  platform?: string
  platformVersion?: string
  architecture?: string
  bitness?: string
  model?: string
  mobile?: boolean
  wow64?: boolean
  fullVersionList?: { brand: string; version: string }[]
}
type UserAgentData = { getHighEntropyValues(hints: string[]): Promise<HighEntropy> }

/** UA client hints, including the high-entropy values (Chromium only). */
export async function userAgentData(): Promise<HighEntropy | Unsupported> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData
  if (!data) return UNSUPPORTED
  const values = await data.getHighEntropyValues([
    'platform',
    'platformVersion',
    'architecture',
    'bitness',
    'model',
    'fullVersionList',
    'wow64',
  ])
  return {
    platform: values.platform,
    platformVersion: values.platformVersion,
    architecture: values.architecture,
    bitness: values.bitness,
    model: values.model,
    mobile: values.mobile,
    wow64: values.wow64,
    fullVersionList: values.fullVersionList?.filter((entry) => !/not.a.brand/i.test(entry.brand)),
  }
}
