import type { ReactNode } from 'react'
import styles from './Notes.module.css'

// The short lines every screen shows about its data and its actions, one look each: loading
// (announced politely), an error (announced at once), a success, and "nothing here yet".

export function LoadingNote({ children }: { children: ReactNode }) {
  return (
    <p role="status" className={styles.loading}>
      {children}
    </p>
  )
}

/** An error; `id` lets a control name it in aria-describedby, `action` offers a way out. */
export function ErrorNote({
  id,
  action,
  children,
}: {
  id?: string
  action?: ReactNode
  children: ReactNode
}) {
  return (
    <div className={styles.error}>
      <p id={id} role="alert">
        {children}
      </p>
      {action}
    </div>
  )
}

export function SuccessNote({ children }: { children: ReactNode }) {
  return (
    <p role="status" className={styles.success}>
      {children}
    </p>
  )
}

export function EmptyNote({ children }: { children: ReactNode }) {
  return <p className={styles.empty}>{children}</p>
}
