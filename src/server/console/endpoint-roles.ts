import 'server-only'
import { type ConsoleEndpoint, consoleEndpoints } from '@/contracts/console-endpoints'
import type { Role } from '@/contracts/roles'

// Each endpoint's method and path as a pattern (`:name` one path segment), built once.
const patterns = Object.entries(consoleEndpoints).map(([key, contract]) => {
  const [method = '', path = ''] = key.split(' ')
  const segments = path.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment))
  return {
    key: key as ConsoleEndpoint,
    method,
    pattern: new RegExp(`^${segments.join('/')}$`),
    role: 'role' in contract ? (contract.role as Role) : undefined,
  }
})

/**
 * The least role the endpoint a request is for asks (the endpoint table's `role`); undefined for a
 * request no entry describes, or one without a role, which consoleHandler refuses (fail closed).
 */
export function roleNeededFor(method: string, pathname: string): Role | undefined {
  return patterns.find((entry) => entry.method === method && entry.pattern.test(pathname))?.role
}
