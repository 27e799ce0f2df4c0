import type { Metadata } from 'next'
import { publicOrigin } from '@/server/http/public-origin'
import { ProductPage } from './ProductPage'

export const metadata: Metadata = { title: 'Device intelligence you host yourself' }

export default async function HomePage() {
  return <ProductPage origin={await publicOrigin()} />
}
