'use client'

import { useEffect, useState } from 'react'
import { AcceptInvitation } from './AcceptInvitation'
import { SignInForm } from './SignInForm'

/**
 * The sign-in form, or the joining form for an invitation link (`/#invitation=<token>`). The token
 * rides in the fragment, which browsers never send; joining replaces the address, token and all.
 */
export function SignInOrJoin({
  singleSignOn,
  sessionEnded,
}: {
  singleSignOn?: string
  sessionEnded?: boolean
}) {
  const [token, setToken] = useState<string | null>(null)
  useEffect(() => {
    const found = new URLSearchParams(window.location.hash.slice(1)).get('invitation')
    if (found) setToken(found.slice(0, 200))
  }, [])
  return token ? (
    <AcceptInvitation token={token} />
  ) : (
    <SignInForm singleSignOn={singleSignOn} sessionEnded={sessionEnded} />
  )
}
