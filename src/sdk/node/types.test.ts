import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import type * as contracts from '@/contracts/server-api'
import type { errorCatalogue } from '@/server/http/errors'
import type * as sdk from './types'

/** True only when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
function assertType<Check extends true>(): Check | undefined {
  return undefined
}

describe('the SDK types', () => {
  it('are exactly the Server API contracts (checked by the type checker)', () => {
    assertType<Equal<sdk.Event, contracts.StoredEvent>>()
    assertType<Equal<sdk.EventPage, contracts.EventPage>>()
    assertType<Equal<sdk.VisitorHistory, contracts.VisitorHistory>>()
    // Query strings arrive as text (zod coerces them); the SDK takes what they parse to.
    assertType<Equal<sdk.EventSearchQuery, Partial<z.output<typeof contracts.EventSearchQuery>>>>()
    assertType<Equal<sdk.VisitorHistoryQuery, Partial<z.output<typeof contracts.VisitorHistoryQuery>>>>()
    // The catalogue, plus the code of the unexpected-failure answer (respond.ts).
    assertType<Equal<sdk.ErrorCode, keyof typeof errorCatalogue | 'internal_error'>>()
    expect(true).toBe(true)
  })
})
