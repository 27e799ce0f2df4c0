import type { Metadata } from 'next'
import { TesseraProvider } from '@/sdk/react'
import { getEnv } from '@/server/env'
import { SignupForm } from './SignupForm'

export const metadata: Metadata = { title: 'Create your account' }

export default function RegistrationPage() {
  // Tessera's own page: the React SDK with the default site, on this origin.
  return (
    <TesseraProvider>
      <SignupForm retentionDays={getEnv().TESSERA_RETENTION_DAYS} />
    </TesseraProvider>
  )
}
