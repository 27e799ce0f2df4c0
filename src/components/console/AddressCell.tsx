import { BreakableText } from '../BreakableText'
import { formatNetwork } from '../format'
import { Cell } from '../Table'
import styles from './console.module.css'

/**
 * An event's address, with its place and network (the ipInfo signal) beneath it when known: a
 * `Table`'s cell. An IPv6 address may wrap at its colons rather than widen the table; an IPv4 one
 * is short and stays whole (a table squeezed by a long value elsewhere would break it at its dots).
 */
export function AddressCell({ ip, ipInfo }: { ip: string | null; ipInfo: { result: unknown } | undefined }) {
  const network = formatNetwork(ipInfo)
  return (
    <Cell label="IP">
      {ip?.includes(':') ? (
        <span className={styles.address}>
          <BreakableText text={ip} />
        </span>
      ) : (
        (ip ?? '—')
      )}
      {network && <span className={`muted ${styles.network}`}>{network}</span>}
    </Cell>
  )
}
