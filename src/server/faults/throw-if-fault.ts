import 'server-only'
import { cookies } from 'next/headers'
import { getEnv } from '../env'

/** Cookie read by the test-only fault switch (TESSERA_TEST_FAULTS=1). */
export const FAULT_COOKIE = 'tessera-test-fault'

export type FaultPoint = 'server' | 'layout' | 'client'

/** Whether this server honours the fault switch at all. */
export function faultsEnabled(): boolean {
  return getEnv().TESSERA_TEST_FAULTS
}

/** Throws when the test-only fault switch asks for a failure at this point. */
export async function throwIfFault(point: Exclude<FaultPoint, 'client'>): Promise<void> {
  if (!faultsEnabled()) return
  const requested = (await cookies()).get(FAULT_COOKIE)?.value
  if (requested === point) throw new Error(`Test fault requested at "${point}"`)
}
