import { describe, expect, it } from 'vitest'
import { defaultSignupPolicy } from '@/contracts/signup-policy'
import { cleanSignupFacts } from '../../../../tests/support/signup-facts'
import { evaluatePolicy, type SignupFacts } from './evaluate-policy'

const clean = cleanSignupFacts

describe('evaluatePolicy with the default policy', () => {
  it('allows a clean sign-up with no reasons', () => {
    expect(evaluatePolicy(clean, defaultSignupPolicy)).toEqual({ outcome: 'allow', reasons: [] })
  })

  const single: [string, Partial<SignupFacts>, 'deny' | 'challenge', string][] = [
    ['a bad bot', { bot: 'bad' }, 'deny', 'bot'],
    ['the fourth account of a visitor in 24 h', { accountsFromVisitor24h: 3 }, 'deny', 'accountLimit'],
    ['tampering', { tampered: true }, 'challenge', 'tampering'],
    ['an identification without the agent’s nonce', { agentProof: 'missing' }, 'challenge', 'agentProof'],
    ['a reused nonce', { agentProof: 'reused' }, 'challenge', 'agentProof'],
    ['too many attempts from a visitor', { attemptsFromVisitor10m: 5 }, 'challenge', 'visitorAttempts'],
    ['too many attempts from an IP', { attemptsFromIp10m: 10 }, 'challenge', 'ipAttempts'],
    ['a high suspect score', { suspectScore: 20 }, 'challenge', 'suspectScore'],
    ['a data-centre address', { network: { ...clean.network, datacenter: true } }, 'challenge', 'datacenter'],
    ['a Tor exit', { network: { ...clean.network, tor: true } }, 'challenge', 'tor'],
    ['a blocklisted address', { network: { ...clean.network, blocked: true } }, 'deny', 'ipBlocklist'],
  ]
  for (const [label, facts, outcome, rule] of single) {
    it(`answers ${outcome} to ${label}`, () => {
      const decision = evaluatePolicy({ ...clean, ...facts }, defaultSignupPolicy)
      expect(decision.outcome).toBe(outcome)
      expect(decision.reasons.map((reason) => reason.rule)).toEqual([rule])
    })
  }

  it('stays just under every threshold', () => {
    const facts = {
      ...clean,
      accountsFromVisitor24h: 2,
      attemptsFromVisitor10m: 4,
      attemptsFromIp10m: 9,
      suspectScore: 19,
    }
    expect(evaluatePolicy(facts, defaultSignupPolicy).outcome).toBe('allow')
  })

  it('lets VPNs and untrusted proxies through until an operator turns their rules on', () => {
    const network = { blocked: false, datacenter: false, vpn: true, proxy: true, tor: false }
    expect(evaluatePolicy({ ...clean, network }, defaultSignupPolicy)).toEqual({
      outcome: 'allow',
      reasons: [],
    })
    const strict = {
      ...defaultSignupPolicy,
      vpnRule: 'challenge' as const,
      proxyRule: 'deny' as const,
      datacenterRule: 'deny' as const,
    }
    const decision = evaluatePolicy({ ...clean, network: { ...network, datacenter: true } }, strict)
    expect(decision.outcome).toBe('deny')
    expect(decision.reasons.map((reason) => [reason.rule, reason.outcome])).toEqual([
      ['datacenter', 'deny'],
      ['vpn', 'challenge'],
      ['proxy', 'deny'],
    ])
  })

  it('lets many visitors behind one address through until an operator sets a limit', () => {
    const crowded = { ...clean, visitorsFromAddress1h: 400 }
    expect(evaluatePolicy(crowded, defaultSignupPolicy).outcome).toBe('allow')
    const policy = {
      ...defaultSignupPolicy,
      addressVisitorsRule: 'challenge' as const,
      maxVisitorsPerAddress: 12,
    }
    expect(evaluatePolicy({ ...clean, visitorsFromAddress1h: 12 }, policy).outcome).toBe('allow')
    const decision = evaluatePolicy({ ...clean, visitorsFromAddress1h: 13 }, policy)
    expect(decision.outcome).toBe('challenge')
    expect(decision.reasons).toEqual([
      {
        rule: 'addressVisitors',
        outcome: 'challenge',
        message:
          '13 different visitors from this address in an hour, this one included: more than the 12 allowed.',
      },
    ])
  })

  it('fires a count rule only past its limit, and says a count greater than the limit when it does', () => {
    const limit = defaultSignupPolicy.maxAttemptsPerVisitor
    // Earlier attempts: this one makes the limit, then one more than it.
    expect(evaluatePolicy({ ...clean, attemptsFromVisitor10m: limit - 1 }, defaultSignupPolicy).outcome).toBe(
      'allow',
    )
    const [reason] = evaluatePolicy({ ...clean, attemptsFromVisitor10m: limit }, defaultSignupPolicy).reasons
    expect(reason?.message).toBe(
      `${limit + 1} sign-up attempts from this device in 10 minutes, this one included: more than the ${limit} allowed.`,
    )
    const accounts = defaultSignupPolicy.maxAccountsPerVisitor
    expect(
      evaluatePolicy({ ...clean, accountsFromVisitor24h: accounts - 1 }, defaultSignupPolicy).outcome,
    ).toBe('allow')
    const [denied] = evaluatePolicy(
      { ...clean, accountsFromVisitor24h: accounts },
      defaultSignupPolicy,
    ).reasons
    expect(denied?.message).toBe(
      `This device already created ${accounts} accounts in the last 24 hours, and at most ${accounts} are allowed.`,
    )
    const [one] = evaluatePolicy(
      { ...clean, accountsFromVisitor24h: 1 },
      { ...defaultSignupPolicy, maxAccountsPerVisitor: 1 },
    ).reasons
    expect(one?.message).toBe(
      'This device already created 1 account in the last 24 hours, and at most 1 is allowed.',
    )
    for (const { message } of evaluatePolicy(
      { ...clean, attemptsFromVisitor10m: 50, attemptsFromIp10m: 50, accountsFromVisitor24h: 50 },
      defaultSignupPolicy,
    ).reasons)
      expect(message).not.toMatch(/\(limit/)
  })

  it('lets a good (declared) crawler through the bot rule', () => {
    expect(evaluatePolicy({ ...clean, bot: 'good' }, defaultSignupPolicy).outcome).toBe('allow')
  })

  it('keeps the strictest outcome and every reason when rules combine', () => {
    const decision = evaluatePolicy(
      { ...clean, tampered: true, bot: 'bad', attemptsFromIp10m: 50 },
      defaultSignupPolicy,
    )
    expect(decision.outcome).toBe('deny')
    expect(decision.reasons.map((reason) => reason.rule)).toEqual(['bot', 'tampering', 'ipAttempts'])
  })

  it('follows edited thresholds and switched-off or softened rules', () => {
    const policy = {
      ...defaultSignupPolicy,
      botRule: 'challenge' as const,
      maxAccountsPerVisitor: 1,
      tamperingRule: 'off' as const,
    }
    expect(evaluatePolicy({ ...clean, bot: 'bad' }, policy).outcome).toBe('challenge')
    expect(evaluatePolicy({ ...clean, accountsFromVisitor24h: 1 }, policy).outcome).toBe('deny')
    expect(evaluatePolicy({ ...clean, tampered: true }, policy).outcome).toBe('allow')
  })

  it('only challenges when the accounts over the limit came from newer browsers with this fingerprint', () => {
    const copied = { ...clean, accountsFromVisitor24h: 5, accountsByNewerBrowsers24h: 3 }
    const decision = evaluatePolicy(copied, defaultSignupPolicy)
    expect(decision.outcome).toBe('challenge')
    expect(decision.reasons).toEqual([
      { rule: 'accountLimit', outcome: 'challenge', message: expect.stringMatching(/other browsers/) },
    ])
    // Its own (or older browsers') accounts reach the limit: denied as before.
    expect(evaluatePolicy({ ...copied, accountsByNewerBrowsers24h: 2 }, defaultSignupPolicy).outcome).toBe(
      'deny',
    )
    // A rule set to challenge or off stays so.
    expect(evaluatePolicy(copied, { ...defaultSignupPolicy, accountLimitRule: 'off' }).outcome).toBe('allow')
  })

  it("names the inbox's accounts from other devices, and lets them decide nothing", () => {
    // Counted in, they would tell a prober at limit − 1 whether an address signed up lately.
    const inbox = { ...clean, accountsFromVisitor24h: 2, accountsForMailboxElsewhere24h: 5 }
    expect(evaluatePolicy(inbox, defaultSignupPolicy)).toEqual({ outcome: 'allow', reasons: [] })
    const decision = evaluatePolicy({ ...inbox, accountsFromVisitor24h: 3 }, defaultSignupPolicy)
    expect(decision.outcome).toBe('deny')
    expect(decision.reasons[0]?.message).toMatch(/Other devices created 5 more for this address's inbox/)
  })
})

describe('evaluatePolicy with lists and labels', () => {
  const policy = defaultSignupPolicy
  const none = { deny: null, allow: null }

  it('denies a sign-up on the deny list, naming the entry in words', () => {
    const decision = evaluatePolicy({ ...clean, listed: { ...none, deny: '@mailinator.com' } }, policy)
    expect(decision).toEqual({
      outcome: 'deny',
      reasons: [
        {
          rule: 'ipBlocklist',
          outcome: 'deny',
          message: "The email domain @mailinator.com is on this site's deny list.",
        },
      ],
    })
  })

  it('denies a device labelled fraud, and the rule can be set to challenge or off', () => {
    expect(evaluatePolicy({ ...clean, label: 'fraud' }, policy).outcome).toBe('deny')
    expect(
      evaluatePolicy({ ...clean, label: 'fraud' }, { ...policy, fraudLabelRule: 'challenge' }).outcome,
    ).toBe('challenge')
    expect(evaluatePolicy({ ...clean, label: 'fraud' }, { ...policy, fraudLabelRule: 'off' }).outcome).toBe(
      'allow',
    )
  })

  it('allows a sign-up from an allow-listed address whatever the rules say, and says which rules it skipped', () => {
    const risky = { ...clean, bot: 'bad' as const, tampered: true }
    const decision = evaluatePolicy({ ...risky, listed: { ...none, allow: '198.51.100.0/24' } }, policy)
    expect(decision).toEqual({
      outcome: 'allow',
      reasons: [
        {
          rule: 'allowList',
          outcome: 'allow',
          message:
            "The address range 198.51.100.0/24 is on this site's allow list. Rules not applied: bot, tampering.",
        },
      ],
    })
  })

  it('lets an allow-listed or good-labelled visitor past challenges, never past a denial (a copy of its fingerprint shares it)', () => {
    const challenged = { ...clean, tampered: true, attemptsFromVisitor10m: 9 }
    expect(evaluatePolicy({ ...challenged, label: 'good' }, policy)).toEqual({
      outcome: 'allow',
      reasons: [
        {
          rule: 'goodLabel',
          outcome: 'allow',
          message: 'An analyst labelled this device as good. Rules not applied: tampering, visitorAttempts.',
        },
      ],
    })
    const listed = { ...challenged, listed: { ...none, allow: 'abcdefghij0123456789' } }
    expect(evaluatePolicy(listed, policy)).toMatchObject({
      outcome: 'allow',
      reasons: [{ rule: 'allowList' }],
    })
    const bot = { ...challenged, bot: 'bad' as const }
    expect(evaluatePolicy({ ...bot, label: 'good' }, policy)).toMatchObject({
      outcome: 'deny',
      reasons: [{ rule: 'bot' }],
    })
    expect(evaluatePolicy({ ...bot, listed: listed.listed }, policy).outcome).toBe('deny')
  })

  it('reads the lists as they are at sign-up: an address just moved to the allow list is not denied by its identification’s signal', () => {
    const moved = {
      ...clean,
      network: { ...clean.network, blocked: true },
      listed: { ...none, allow: '203.0.113.7' },
    }
    expect(evaluatePolicy(moved, policy).outcome).toBe('allow')
    const { listed: _listed, ...older } = moved
    expect(evaluatePolicy(older, policy).outcome).toBe('deny')
  })

  it('lets the deny list and a fraud label beat the allow list and a good label', () => {
    const both = { ...clean, listed: { deny: 'abcdefghij0123456789', allow: '203.0.113.0/24' } }
    expect(evaluatePolicy(both, policy)).toMatchObject({
      outcome: 'deny',
      reasons: [
        { rule: 'ipBlocklist', message: "The visitor abcdefghij0123456789 is on this site's deny list." },
      ],
    })
    const fraudOnAllowList = { ...clean, label: 'fraud' as const, listed: { ...none, allow: '203.0.113.7' } }
    expect(evaluatePolicy(fraudOnAllowList, policy).outcome).toBe('deny')
    // A deny-list rule switched off no longer overrules: the allow list then decides.
    expect(evaluatePolicy(both, { ...policy, ipBlocklistRule: 'off' }).outcome).toBe('allow')
  })

  it('reads decisions stored before lists and labels as matching none', () => {
    const { listed: _listed, label: _label, ...older } = { ...clean, listed: none, label: null }
    expect(evaluatePolicy(older, policy)).toEqual({ outcome: 'allow', reasons: [] })
  })
})
