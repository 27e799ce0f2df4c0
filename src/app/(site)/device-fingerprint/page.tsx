import type { Metadata } from 'next'
import { DeviceReport } from './DeviceReport'

export const metadata: Metadata = { title: 'Your device' }

export default function DeviceFingerprintPage() {
  return <DeviceReport />
}
