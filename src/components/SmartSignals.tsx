import { formatNetwork } from './format'
import styles from './SmartSignals.module.css'

type Signal = { result: unknown; reasons: string[]; kind?: string; confidence?: string }

const labels: Record<
  string,
  { title: string; describe(signal: Signal): { text: string; tone: 'ok' | 'warn' | 'danger' } }
> = {
  bot: {
    title: 'Bot or automation',
    describe: (signal) =>
      signal.result === 'bad'
        ? { text: `Automation detected${signal.kind ? `: ${signal.kind}` : ''}`, tone: 'danger' }
        : signal.result === 'good'
          ? { text: `Declared crawler${signal.kind ? `: ${signal.kind}` : ''}`, tone: 'warn' }
          : { text: 'Not detected', tone: 'ok' },
  },
  tampering: {
    title: 'Tampering',
    describe: (signal) =>
      signal.result ? { text: 'Signs of tampering', tone: 'danger' } : { text: 'None found', tone: 'ok' },
  },
  privacyBrowser: {
    title: 'Privacy-hardened browser',
    describe: (signal) =>
      signal.result ? { text: 'Yes (not suspicious)', tone: 'warn' } : { text: 'No', tone: 'ok' },
  },
  privateMode: {
    title: 'Private window',
    describe: (signal) =>
      signal.result ? { text: 'Likely', tone: 'warn' } : { text: 'Not detected', tone: 'ok' },
  },
  virtualMachine: {
    title: 'Virtual machine',
    describe: (signal) =>
      signal.result ? { text: 'Likely', tone: 'warn' } : { text: 'Not detected', tone: 'ok' },
  },
  agentProof: {
    title: 'Agent proof',
    describe: (signal) =>
      signal.result === 'valid'
        ? { text: 'The agent ran', tone: 'ok' }
        : { text: `No valid proof (${String(signal.result)})`, tone: 'warn' },
  },
  datacenter: {
    title: 'Data centre',
    describe: (signal) =>
      signal.result
        ? { text: `A hosting network${signal.kind ? `: ${signal.kind}` : ''}`, tone: 'warn' }
        : { text: 'Not a hosting network', tone: 'ok' },
  },
  vpn: {
    title: 'VPN',
    describe: (signal) =>
      signal.result
        ? { text: `Likely${signal.confidence ? ` (${signal.confidence} confidence)` : ''}`, tone: 'warn' }
        : { text: 'Not detected', tone: 'ok' },
  },
  proxy: {
    title: 'Proxy',
    describe: (signal) =>
      signal.result ? { text: 'Detected', tone: 'warn' } : { text: 'Not detected', tone: 'ok' },
  },
  tor: {
    title: 'Tor',
    describe: (signal) =>
      signal.result ? { text: 'A Tor exit relay', tone: 'danger' } : { text: 'Not a Tor exit', tone: 'ok' },
  },
  velocity: {
    title: 'Velocity',
    describe: (signal) =>
      signal.reasons.length ? { text: 'Unusually busy', tone: 'warn' } : { text: 'Normal', tone: 'ok' },
  },
  ipVelocity: {
    title: 'Devices on this address',
    describe: (signal) =>
      signal.reasons.length ? { text: 'Unusually many', tone: 'warn' } : { text: 'Normal', tone: 'ok' },
  },
}

/** A signal's name in words ("Virtual machine", not `virtualMachine`). */
export function signalTitle(name: string): string {
  return labels[name]?.title ?? name
}

/** The smart signals of one identification, each with its plain-language reasons. */
export function SmartSignals({
  signals,
  suspectScore,
}: {
  signals: Record<string, Signal>
  suspectScore: number
}) {
  const network = formatNetwork(signals.ipInfo)
  return (
    <div className={styles.grid}>
      {signals.ipInfo && (
        <article className="tile" data-testid="signal-network">
          <h3>Network</h3>
          <p className={styles.verdict}>{network ?? 'Unknown network'}</p>
          {signals.ipInfo.reasons.length > 0 && (
            <ul>
              {signals.ipInfo.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          )}
          <p className={styles.note}>
            Where the address is and whose network it is.{' '}
            <a href="https://db-ip.com/">IP Geolocation by DB-IP</a>; AS data by RouteViews and DB-IP.
          </p>
        </article>
      )}
      {Object.entries(labels).map(([name, label]) => {
        const signal = signals[name]
        if (!signal) return null
        const { text, tone } = label.describe(signal)
        return (
          <article key={name} className="tile" data-testid={`signal-${name}`}>
            <h3>{label.title}</h3>
            <p className={`${styles.verdict} ${styles[tone]}`}>{text}</p>
            {signal.reasons.length > 0 && (
              <ul>
                {signal.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            )}
          </article>
        )
      })}
      <article className="tile">
        <h3>Suspect score</h3>
        <p
          className={`${styles.verdict} ${suspectScore >= 10 ? styles.danger : suspectScore > 0 ? styles.warn : styles.ok}`}
          data-testid="suspect-score"
        >
          {suspectScore}
        </p>
        <p className={styles.note}>The weighted sum of the signals above; 0 is clean.</p>
      </article>
    </div>
  )
}
