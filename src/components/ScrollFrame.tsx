'use client'

import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react'
import tables from './Table.module.css'

/**
 * Whether an element's content is wider than the element, so that it scrolls sideways: checked
 * again whenever its size or its content's changes (a table loaded, a phone turned).
 */
export function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (!element || typeof ResizeObserver === 'undefined') return
    const check = () => setScrolls(element.scrollWidth > element.clientWidth + 1)
    const observer = new ResizeObserver(check)
    const watch = () => {
      observer.disconnect()
      observer.observe(element)
      for (const child of element.children) observer.observe(child)
      check()
    }
    // New content (a table in place of "Loading…", another text in a code block) is watched too.
    const mutations = new MutationObserver(watch)
    mutations.observe(element, { childList: true, subtree: true, characterData: true })
    watch()
    return () => {
      observer.disconnect()
      mutations.disconnect()
    }
  }, [ref])
  return scrolls
}

/**
 * A table's frame, scrolling sideways when its table is wider (on a phone a `Table`'s rows stack
 * and fit). While it scrolls it takes the focus and names itself, so a keyboard can scroll it even
 * when no cell holds a control (WCAG 2.1.1); while everything fits it is no stop on the way, and
 * says nothing of scrolling.
 */
export function ScrollFrame({
  label,
  className,
  children,
}: {
  /** What the frame holds, for screen readers, while it is a stop of its own. */
  label: string
  className?: string
  children: ReactNode
}) {
  const ref = useRef<HTMLDivElement>(null)
  const scrolls = useScrollsSideways(ref)
  return (
    <div
      ref={ref}
      className={className ? `${tables.frame} ${className}` : tables.frame}
      {...(scrolls ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  )
}
