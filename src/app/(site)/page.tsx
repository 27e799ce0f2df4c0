import type { Metadata } from 'next'
import { cookies } from 'next/headers'
import { Console } from '@/components/console/Console'
import { readSession, SESSION_COOKIE } from '@/server/console/sessions'
import { getDb } from '@/server/db/client'
import { publicOrigin } from '@/server/http/public-origin'
import { ProductPage } from './ProductPage'

export const metadata: Metadata = { title: 'Device intelligence you host yourself' }

/** Signed out: the product page and the sign-in form. Signed in: the console. */
export default async function HomePage() {
  const [origin, jar, db] = await Promise.all([publicOrigin(), cookies(), getDb()])
  const operator = await readSession({ db, token: jar.get(SESSION_COOKIE)?.value })
  return operator ? <Console username={operator.username} origin={origin} /> : <ProductPage origin={origin} />
}
