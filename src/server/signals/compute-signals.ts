import type { ComponentResult } from '@/contracts/identify'
import { type BotSignal, detectBot } from './detect-bot'
import { detectPrivacyBrowser, detectPrivateMode, detectVirtualMachine } from './detect-environment'
import { detectTampering, type FlagSignal } from './detect-tampering'
import { ComponentReader } from './read-components'
import { computeVelocity, type VelocityRow, type VelocitySignal } from './velocity'

export type SmartSignals = {
  bot: BotSignal
  tampering: FlagSignal
  privacyBrowser: FlagSignal
  privateMode: FlagSignal
  virtualMachine: FlagSignal
  velocity: VelocitySignal
}

/** Every smart signal of one identification, each with plain-language reasons. */
export function computeSignals(
  components: Record<string, ComponentResult>,
  context: { ip: string | null; linkedId?: string; velocity?: VelocityRow },
): SmartSignals {
  const read = new ComponentReader(components)
  return {
    bot: detectBot(read),
    tampering: detectTampering(read),
    privacyBrowser: detectPrivacyBrowser(read),
    privateMode: detectPrivateMode(read),
    virtualMachine: detectVirtualMachine(read),
    velocity: computeVelocity(context.velocity, context),
  }
}
