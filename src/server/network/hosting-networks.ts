import 'server-only'
import type { AutonomousSystem } from './asn-table'

// Which networks are not where people browse from. Two sources, each checked in tests against the
// shipped AS data (network-data.test.ts):
// 1. Autonomous systems listed by number: each provider's own registered AS numbers, as published
//    in its RIR record (RIPE, ARIN, APNIC) and on PeeringDB. A curated list of the large clouds and
//    hosts and of networks owned by VPN or relay services; extend it here, with its source.
// 2. The organisation's registered name: hosting, data centre, colocation, VPS words (a few
//    hundred of the 84 000 organisations in the AS data match).

export type NetworkKind = 'hosting' | 'vpn' | 'relay'

interface ListedNetwork {
  name: string
  kind: NetworkKind
}

/** AS number → operator, by its RIR record / PeeringDB entry. */
const LISTED: Record<number, ListedNetwork> = {
  16509: { name: 'Amazon AWS', kind: 'hosting' },
  14618: { name: 'Amazon AWS', kind: 'hosting' },
  396982: { name: 'Google Cloud', kind: 'hosting' },
  15169: { name: 'Google', kind: 'hosting' },
  8075: { name: 'Microsoft Azure', kind: 'hosting' },
  31898: { name: 'Oracle Cloud', kind: 'hosting' },
  14061: { name: 'DigitalOcean', kind: 'hosting' },
  63949: { name: 'Akamai Connected Cloud (Linode)', kind: 'hosting' },
  20473: { name: 'Vultr', kind: 'hosting' },
  16276: { name: 'OVHcloud', kind: 'hosting' },
  24940: { name: 'Hetzner', kind: 'hosting' },
  213230: { name: 'Hetzner Cloud', kind: 'hosting' },
  12876: { name: 'Scaleway', kind: 'hosting' },
  51167: { name: 'Contabo', kind: 'hosting' },
  60781: { name: 'Leaseweb', kind: 'hosting' },
  28753: { name: 'Leaseweb', kind: 'hosting' },
  8560: { name: 'IONOS', kind: 'hosting' },
  197540: { name: 'netcup', kind: 'hosting' },
  45102: { name: 'Alibaba Cloud', kind: 'hosting' },
  132203: { name: 'Tencent Cloud', kind: 'hosting' },
  36352: { name: 'ColoCrossing', kind: 'hosting' },
  62240: { name: 'Clouvider', kind: 'hosting' },
  47583: { name: 'Hostinger', kind: 'hosting' },
  9009: { name: 'M247', kind: 'hosting' },
  60068: { name: 'Datacamp (CDN77)', kind: 'hosting' },
  212238: { name: 'Datacamp (CDN77)', kind: 'hosting' },
  136787: { name: 'NordVPN (Tefincom)', kind: 'vpn' },
  209103: { name: 'Proton VPN', kind: 'vpn' },
  62371: { name: 'Proton VPN', kind: 'vpn' },
  36183: { name: 'iCloud Private Relay (Akamai)', kind: 'relay' },
  13335: { name: 'Cloudflare (WARP)', kind: 'relay' },
}

const HOSTING_NAME =
  /\b(hosting|data ?cent(er|re)s?|colocation|dedicated servers?|vps|virtual servers?|cloud (services|computing|hosting|provider|platform))\b/i
const VPN_NAME = /\bvpn\b/i

/** What kind of network an autonomous system is, when it is not (as far as is known) one people browse from. */
export function classifyNetwork(
  system: AutonomousSystem | null,
): (ListedNetwork & { by: 'list' | 'name' }) | null {
  if (!system) return null
  const listed = LISTED[system.asn]
  if (listed) return { ...listed, by: 'list' }
  if (VPN_NAME.test(system.organization)) return { name: system.organization, kind: 'vpn', by: 'name' }
  if (HOSTING_NAME.test(system.organization))
    return { name: system.organization, kind: 'hosting', by: 'name' }
  return null
}
