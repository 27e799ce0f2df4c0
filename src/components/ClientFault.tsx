'use client'

import { useEffect, useState } from 'react'

/**
 * Test-only: throws during a client render when the fault cookie says "client". It is only
 * rendered when the server runs with TESSERA_TEST_FAULTS=1; the cookie is read after hydration
 * so the failure happens in the browser, not during server rendering.
 */
export function ClientFault({ cookieName }: { cookieName: string }) {
  const [fail, setFail] = useState(false)
  useEffect(() => {
    setFail(document.cookie.split('; ').includes(`${cookieName}=client`))
  }, [cookieName])
  if (fail) throw new Error('Test fault requested at "client"')
  return null
}
