import { UNSUPPORTED, type Unsupported } from '../unsupported'

/** Notification permission as two APIs report it; headless browsers have answered inconsistently. */
export async function permissions(): Promise<{ notification: string; query: string } | Unsupported> {
  if (typeof Notification === 'undefined' || !navigator.permissions) return UNSUPPORTED
  const status = await navigator.permissions.query({ name: 'notifications' as PermissionName })
  return { notification: Notification.permission, query: status.state }
}
