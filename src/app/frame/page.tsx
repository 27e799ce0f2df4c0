import type { Metadata } from 'next'
import { getDb } from '@/server/db/client'
import { findSite } from '@/server/sites/find-site'
import { FrameCollector } from './FrameCollector'

export const metadata: Metadata = { title: 'Collector', robots: { index: false } }

/** Bare page for <iframe> use on other origins: no navigation, transparent, nothing to see. */
export default async function FramePage({
  searchParams,
}: {
  searchParams: Promise<{ siteKey?: string | string[] }>
}) {
  const { siteKey } = await searchParams
  const key = typeof siteKey === 'string' ? siteKey : undefined
  const site = key ? await findSite({ db: await getDb(), publicKey: key }) : undefined
  return <FrameCollector siteKey={site?.publicKey ?? null} allowedOrigins={site?.allowedOrigins ?? []} />
}
