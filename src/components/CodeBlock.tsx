'use client'

import { useState } from 'react'
import styles from './CodeBlock.module.css'

/** A code sample with a copy button that says when the copy worked. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle')

  async function copy() {
    try {
      await navigator.clipboard.writeText(code)
      setStatus('copied')
    } catch {
      setStatus('failed')
    }
    setTimeout(() => setStatus('idle'), 2000)
  }

  return (
    <figure className={styles.block}>
      <figcaption className={styles.caption}>
        <span>{label}</span>
        <button type="button" className={styles.copy} onClick={copy}>
          {status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </figcaption>
      <pre className={styles.pre}>
        <code>{code}</code>
      </pre>
      <span role="status" className="visually-hidden">
        {status === 'copied' ? 'Copied to the clipboard' : ''}
      </span>
    </figure>
  )
}
