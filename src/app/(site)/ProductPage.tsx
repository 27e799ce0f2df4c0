import Link from 'next/link'
import { CodeBlock } from '@/components/CodeBlock'
import { SignInOrJoin } from '@/components/console/SignInOrJoin'
import styles from './ProductPage.module.css'

const features = [
  {
    title: 'A visitor ID that sticks',
    body: 'Server-side matching recognises a browser after cookies are cleared, in private windows and across browser updates.',
  },
  {
    title: 'Smart signals',
    body: 'Bots and automation, tampered browsers, private mode, virtual machines and velocity, each with a plain reason.',
  },
  {
    title: 'Protected sign-ups',
    body: 'Allow, challenge with a proof-of-work puzzle, or deny — decided by your own rules, on your own server.',
  },
  {
    title: 'Yours to host',
    body: 'One Node.js process with an embedded database, or many behind a load balancer over PostgreSQL. No data leaves it.',
  },
] as const

/**
 * `singleSignOn`: the OpenID Connect provider's name when one is configured; `sessionEnded`: the
 * browser came with a session this server no longer knows.
 */
export function ProductPage({
  origin,
  singleSignOn,
  sessionEnded = false,
}: {
  origin: string
  singleSignOn?: string
  sessionEnded?: boolean
}) {
  const snippet = `<script src="${origin}/agent.js"></script>
<script type="module">
  const agent = await Tessera.load({
    siteKey: 'YOUR_SITE_KEY',
    endpoint: '${origin}',
  })
  const { visitorId, requestId } = await agent.get()
  // Send requestId to your back end, which asks
  // Tessera's Server API for the verdict.
</script>`

  return (
    <>
      <section className={styles.hero}>
        <div className="container">
          <p className={styles.eyebrow}>Open-source · self-hosted</p>
          <h1>Know the device behind every sign-up</h1>
          <p className={styles.lead}>
            Tessera identifies browsers with a stable visitor ID and flags bots, tampering and repeat sign-ups
            — without sending your visitors&rsquo; data to anyone.
          </p>
          <div className={styles.actions}>
            <Link href="/device-fingerprint" className="button">
              See what your browser reveals
            </Link>
            <Link href="/registration" className="button button-secondary">
              Try the protected sign-up
            </Link>
          </div>
        </div>
      </section>

      <section className="container" aria-labelledby="features-heading">
        <h2 id="features-heading" className="visually-hidden">
          What Tessera does
        </h2>
        <ul className={styles.features}>
          {features.map((feature) => (
            <li key={feature.title} className="card">
              <h3>{feature.title}</h3>
              <p className="muted">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className={`container ${styles.split}`} aria-labelledby="embed-heading">
        <div>
          <h2 id="embed-heading">Embed it in three steps</h2>
          <p className="muted">
            The agent collects browser signals; this server turns them into a visitor ID and signals. Your
            back end confirms each <code>requestId</code> with a secret API key instead of trusting the
            browser.
          </p>
          <ol className={styles.steps}>
            <li>Load the agent with your public site key.</li>
            <li>
              Call <code>agent.get()</code> and send the <code>requestId</code> with your form.
            </li>
            <li>
              Your server reads <code>{'GET /api/v1/events/{requestId}'}</code> and decides.
            </li>
          </ol>
        </div>
        <CodeBlock code={snippet} label="HTML" />
      </section>

      <section className={`container ${styles.operator}`} aria-labelledby="operator-heading">
        <div>
          <h2 id="operator-heading">Operator console</h2>
          <p className="muted">
            Operators sign in here to watch identifications and sign-up decisions as they happen, look up any
            visitor, tune the sign-up rules, and manage sites, secret API keys and webhooks.
          </p>
          <p className="muted">
            The first operator is <code>admin</code>; its password comes from{' '}
            <code>TESSERA_ADMIN_PASSWORD</code>, or was printed once to the server log at the first start.
          </p>
        </div>
        <SignInOrJoin singleSignOn={singleSignOn} sessionEnded={sessionEnded} />
      </section>
    </>
  )
}
