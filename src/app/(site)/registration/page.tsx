import type { Metadata } from 'next'
import { SignupForm } from './SignupForm'

export const metadata: Metadata = { title: 'Create your account' }

export default function RegistrationPage() {
  return <SignupForm />
}
