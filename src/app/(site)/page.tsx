import type { Metadata } from 'next'
import { headers } from 'next/headers'
import { Console } from '@/components/console/Console'
import { oidcSettings } from '@/server/console/oidc'
import { readSession, sessionTokenOf } from '@/server/console/sessions'
import { getDb } from '@/server/db/client'
import { getEnv, testOnlySettings } from '@/server/env'
import { configuredHosts } from '@/server/http/allowed-hosts'
import { ownOrigin } from '@/server/http/public-origin'
import { ProductPage } from './ProductPage'

export const metadata: Metadata = { title: 'Device intelligence you host yourself' }

/** Signed out: the product page and the sign-in form (saying so when a session ended). Signed in: the console. */
export default async function HomePage() {
  const [incoming, db] = await Promise.all([headers(), getDb()])
  const origin = ownOrigin({ headers: incoming })
  const token = sessionTokenOf({ headers: incoming })
  const operator = await readSession({ db, token })
  // A session cookie this server no longer knows: the session expired or the account was removed.
  if (!operator)
    return <ProductPage origin={origin} singleSignOn={oidcSettings()?.name} sessionEnded={Boolean(token)} />
  const env = getEnv()
  const publicPaths = { agentPath: env.TESSERA_AGENT_PATH, apiPrefix: env.TESSERA_API_PREFIX }
  return (
    <Console
      username={operator.username}
      singleSignOn={operator.singleSignOn === true}
      role={operator.role}
      origin={origin}
      publicPaths={publicPaths}
      hostsConfigured={configuredHosts(env).length > 0}
      testOnlySettings={testOnlySettings(env)}
    />
  )
}
