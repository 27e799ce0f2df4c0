import type { FlagSignal } from '@/contracts/signals'
import type { ComponentReader } from './read-components'

/** Privacy-hardened browsers: randomised canvas or audio. A signal, never fraud by itself. */
export function detectPrivacyBrowser(read: ComponentReader): FlagSignal {
  const reasons: string[] = []
  if (read.field('canvas', 'randomized') === true) reasons.push('Canvas reads return random noise.')
  if (read.field('audio', 'randomized') === true) reasons.push('Audio rendering returns random noise.')
  const zone = read.string('timezone')
  const screen = read.value('screen')
  const inner = read.field('windowGeometry', 'inner')
  // Firefox's resistFingerprinting: UTC clock and a screen that is exactly the window.
  if (
    zone === 'UTC' &&
    Array.isArray(screen) &&
    Array.isArray(inner) &&
    screen[0] === inner[0] &&
    screen[1] === inner[1]
  ) {
    if (/Firefox\//.test(read.string('userAgent') ?? ''))
      reasons.push('Firefox resists fingerprinting (UTC clock, screen equal to the window).')
  }
  return { result: reasons.length > 0, reasons }
}

/** Private (incognito) windows, by the storage and API heuristics of each engine. */
export function detectPrivateMode(read: ComponentReader): FlagSignal {
  const userAgent = read.string('userAgent') ?? ''
  const quota = read.number('storageQuota')
  const reasons: string[] = []
  const chromium = /Chrome\//.test(userAgent)
  const firefox = /Firefox\//.test(userAgent)
  const safari = /Safari\//.test(userAgent) && !chromium
  // Chromium gives incognito profiles a small, memory-bound quota instead of a share of the disk.
  if (chromium && quota !== undefined && quota > 0 && quota < 1200)
    reasons.push(`Storage quota is only ${quota} MiB, as in a private window.`)
  if (firefox && read.boolean('indexedDb') === false)
    reasons.push('IndexedDB is unavailable, as in a Firefox private window.')
  if (safari && read.boolean('localStorage') === false)
    reasons.push('Local storage is unavailable, as in a Safari private window.')
  return { result: reasons.length > 0, reasons }
}

const vmRenderers =
  /(VMware|VirtualBox|llvmpipe|SwiftShader|Parallels|QEMU|virgl|Microsoft Basic Render|Hyper-V)/i

/** Virtual machines: VM-typical GPU renderers, and small hardware figures alongside one. */
export function detectVirtualMachine(read: ComponentReader): FlagSignal {
  const renderer = String(
    read.field('webglBasics', 'unmaskedRenderer') ?? read.field('webglBasics', 'renderer') ?? '',
  )
  const match = vmRenderers.exec(renderer)
  if (!match) return { result: false, reasons: [] }
  const reasons = [`The graphics renderer is ${match[1]}, typical of virtual machines and servers.`]
  const cores = read.number('hardwareConcurrency')
  const memory = read.number('deviceMemory')
  if (cores !== undefined && cores <= 2) reasons.push(`Only ${cores} CPU cores.`)
  if (memory !== undefined && memory <= 2) reasons.push(`Only ${memory} GB of memory.`)
  return { result: true, reasons }
}
