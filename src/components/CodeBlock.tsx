'use client'

import { useRef, useState } from 'react'
import styles from './CodeBlock.module.css'
import { useScrollsSideways } from './ScrollFrame'

/** A code sample with a copy button that says when the copy worked. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle')
  const pre = useRef<HTMLPreElement>(null)
  // A line longer than the block scrolls it sideways: then a keyboard must be able to reach it.
  const scrolls = useScrollsSideways(pre)

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
      <pre
        ref={pre}
        className={styles.pre}
        {...(scrolls ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}
      >
        <code>{code}</code>
      </pre>
      <span role="status" className="visually-hidden">
        {status === 'copied' ? 'Copied to the clipboard' : ''}
      </span>
    </figure>
  )
}
