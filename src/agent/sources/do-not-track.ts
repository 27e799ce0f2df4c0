import { UNSUPPORTED, type Unsupported } from '../unsupported'

export function doNotTrack(): string | Unsupported {
  const legacy = window as unknown as { doNotTrack?: string; msDoNotTrack?: string }
  return navigator.doNotTrack ?? legacy.doNotTrack ?? legacy.msDoNotTrack ?? UNSUPPORTED
}
