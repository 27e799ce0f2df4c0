import type { SignupFacts } from '@/server/signup/policy/evaluate-policy'

/** A sign-up no rule objects to: a person, with the agent's proof, on a quiet address. */
export const cleanSignupFacts: SignupFacts = {
  bot: 'notDetected',
  tampered: false,
  agentProof: 'valid',
  suspectScore: 0,
  network: { blocked: false, datacenter: false, vpn: false, proxy: false, tor: false },
  accountsFromVisitor24h: 0,
  accountsByNewerBrowsers24h: 0,
  accountsForMailboxElsewhere24h: 0,
  attemptsFromVisitor10m: 0,
  attemptsFromIp10m: 0,
  visitorsFromAddress1h: 1,
}
