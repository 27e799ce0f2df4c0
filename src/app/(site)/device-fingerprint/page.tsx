import type { Metadata } from 'next'
import { TesseraProvider } from '@/sdk/react'
import { DeviceReport } from './DeviceReport'

export const metadata: Metadata = { title: 'Your device' }

export default function DeviceFingerprintPage() {
  // Tessera's own page: the React SDK with the default site, on this origin.
  return (
    <TesseraProvider>
      <DeviceReport />
    </TesseraProvider>
  )
}
