import { formatNetwork } from '../format'
import { Cell } from '../Table'
import styles from './console.module.css'

/** An event's address, with its place and network (the ipInfo signal) beneath it when known: a `Table`'s cell. */
export function AddressCell({ ip, ipInfo }: { ip: string | null; ipInfo: { result: unknown } | undefined }) {
  const network = formatNetwork(ipInfo)
  return (
    <Cell label="IP">
      {ip ?? '—'}
      {network && <span className={`muted ${styles.network}`}>{network}</span>}
    </Cell>
  )
}
