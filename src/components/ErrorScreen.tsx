'use client'

import styles from './ErrorScreen.module.css'

/** The generic full-page error screen shared by app/error.tsx and app/global-error.tsx. */
export function ErrorScreen({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const digest =
    typeof error === 'object' && error !== null && 'digest' in error && typeof error.digest === 'string'
      ? error.digest
      : undefined
  return (
    <main className={styles.screen}>
      <div className={styles.panel} role="alert" aria-labelledby="error-title">
        <svg aria-hidden="true" viewBox="0 0 24 24" width="40" height="40" className={styles.icon}>
          <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M12 7v6M12 16.5v.5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        </svg>
        <h1 id="error-title">Something went wrong</h1>
        <p>
          Tessera hit an unexpected problem while loading this page. It is not something you did. Try again;
          if it keeps happening, tell the operator of this site.
        </p>
        {digest ? (
          <p className={styles.digest}>
            Error reference: <code data-testid="error-digest">{digest}</code>
          </p>
        ) : (
          <p className={styles.digest}>This error happened in your browser, so it has no server reference.</p>
        )}
        <div className={styles.actions}>
          <button type="button" className={styles.primary} onClick={onRetry}>
            Try again
          </button>
          <a href="/" className={styles.secondary}>
            Go to the home page
          </a>
        </div>
      </div>
    </main>
  )
}
