'use client'

import styles from './DeviceReport.module.css'

/** The visitor's own device report; the agent and identification fill its regions. */
export function DeviceReport() {
  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.intro}>
        <h1>Your device</h1>
        <p className="muted">
          This is what your browser tells any website that asks. Tessera uses it only to recognise devices and
          stop fraud; you can export or delete everything stored about this device.
        </p>
      </header>

      <section className={`card ${styles.identity}`} aria-labelledby="identity-heading">
        <h2 id="identity-heading">Visitor</h2>
        <dl className={styles.figures}>
          <div>
            <dt>Visitor ID</dt>
            <dd className={styles.mono}>—</dd>
          </div>
          <div>
            <dt>Confidence</dt>
            <dd>—</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="signals-heading" className={styles.section}>
        <h2 id="signals-heading">Collected signals</h2>
        <p className="muted">No signals collected yet.</p>
      </section>
    </div>
  )
}
