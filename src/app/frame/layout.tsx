import type { ReactNode } from 'react'

export default function FrameLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <style>{'body{background:transparent}'}</style>
      {children}
    </>
  )
}
