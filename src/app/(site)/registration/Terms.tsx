import styles from './SignupForm.module.css'

/**
 * The terms the sign-up's checkbox accepts, read before it: what the account and the device check
 * keep, for how long (`retentionDays`, the server's retention period), what the visitor can see and
 * delete, and what is asked in return.
 */
export function Terms({ retentionDays }: { retentionDays: number }) {
  const period = `${retentionDays} ${retentionDays === 1 ? 'day' : 'days'}`
  return (
    <details className={styles.terms}>
      <summary>Read the terms of service</summary>
      <ul>
        <li>
          Your account keeps your name, your email address, a hash of your password (never the password
          itself) and the device it was created from.
        </li>
        <li>
          To keep fake sign-ups out, this page identifies your browser. Each visit keeps the signals it read,
          the device ID they give, your IP address and the page&rsquo;s address; this sign-up&rsquo;s decision
          keeps your email and IP address with its reasons. They are kept for the site&rsquo;s operator for
          about {period} (the device ID until your browser has not been seen for that long), then deleted.
        </li>
        <li>
          On <a href="/device-fingerprint">your device&rsquo;s page</a> you can see and download this
          browser&rsquo;s visits, and delete them with the sign-up decisions made on them; your account stays.
        </li>
        <li>Sign up for yourself only, and not by a script or a bot.</li>
      </ul>
    </details>
  )
}
