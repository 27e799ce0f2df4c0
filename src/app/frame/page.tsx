import type { Metadata } from 'next'
import { FrameCollector } from './FrameCollector'

export const metadata: Metadata = { title: 'Collector', robots: { index: false } }

/** Bare page for <iframe> use on other origins: no navigation, transparent, nothing to see. */
export default function FramePage() {
  return <FrameCollector />
}
