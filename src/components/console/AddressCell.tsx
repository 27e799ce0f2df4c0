import { formatNetwork } from '../format'
import styles from './console.module.css'

/** An event's address, with its place and network (the ipInfo signal) beneath it when known. */
export function AddressCell({ ip, ipInfo }: { ip: string | null; ipInfo: { result: unknown } | undefined }) {
  const network = formatNetwork(ipInfo)
  return (
    <td>
      {ip ?? '—'}
      {network && <span className={`muted ${styles.network}`}>{network}</span>}
    </td>
  )
}
