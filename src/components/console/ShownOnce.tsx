import { type ReactNode, useEffect, useRef } from 'react'
import { CodeBlock } from '../CodeBlock'
import styles from './console.module.css'

/** A secret shown once, right after it is created: what it is for, the value to copy, then "copied". */
export function ShownOnce({
  message,
  label,
  secret,
  onDone,
  children,
}: {
  message: ReactNode
  /** The code block's label, e.g. "Secret API key". */
  label: string
  secret: string
  onDone: () => void
  /** More to show under the secret, e.g. how to use it. */
  children?: ReactNode
}) {
  // Where focus was when the secret appeared (the button that created it): it goes back there when
  // the secret is put away, not to the start of the page.
  const opener = useRef<HTMLElement | null>(null)
  useEffect(() => {
    // Not the page itself: the button that created the secret may be gone with its form.
    const active = document.activeElement
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null
  }, [])
  function done() {
    const back = opener.current
    onDone()
    if (back?.isConnected) back.focus()
  }
  return (
    <div className={styles.secret} role="status">
      <p>{message}</p>
      <CodeBlock code={secret} label={label} />
      {children}
      <button type="button" className="button button-secondary" onClick={done}>
        I have copied it
      </button>
    </div>
  )
}
