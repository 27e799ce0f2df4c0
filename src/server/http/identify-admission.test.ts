import { describe, expect, it } from 'vitest'
import { type Admission, type AdmissionLimits, createAdmission } from './identify-admission'

const limits: AdmissionLimits = {
  ratePoints: 5,
  rateWindowSeconds: 10,
  perClientInFlight: 3,
  busyInFlight: 6,
  busyLagMs: 200,
  maxInFlight: 8,
}

function admitted(admission: Admission) {
  if ('refusal' in admission) throw new Error(`refused: ${admission.refusal.message}`)
  return admission
}

describe('identify admission', () => {
  it('caps what one client has in flight, and frees a place when an answer is sent', async () => {
    const admission = createAdmission({ ...limits, ratePoints: 0 }, () => 0)
    const held = await Promise.all([1, 2, 3].map(() => admission.admit('198.51.100.1')))
    const refused = await admission.admit('198.51.100.1')
    expect(refused).toEqual({
      refusal: expect.objectContaining({ status: 429, code: 'rate_limited', retryAfter: 1 }),
    })
    // Another client is not affected.
    admitted(await admission.admit('198.51.100.2'))
    admitted(held[0] as Admission).release()
    admitted(held[0] as Admission).release() // twice is once
    admitted(await admission.admit('198.51.100.1'))
    expect(admission.inFlight()).toBe(4)
  })

  it('spends one client’s rate budget, and says how long to wait', async () => {
    const admission = createAdmission(limits, () => 0)
    for (let call = 0; call < 5; call++) admitted(await admission.admit('203.0.113.7')).release()
    const refused = await admission.admit('203.0.113.7')
    expect('refusal' in refused && refused.refusal).toMatchObject({ status: 429, code: 'rate_limited' })
    expect('refusal' in refused && refused.refusal.retryAfter).toBeGreaterThanOrEqual(9)
    // A refusal holds nothing.
    expect(admission.inFlight()).toBe(0)
  })

  it('when busy (a late event loop, or many in flight), serves each client one request at a time', async () => {
    let lag = 0
    const admission = createAdmission({ ...limits, ratePoints: 0 }, () => lag)
    const first = admitted(await admission.admit('a'))
    lag = 250
    expect('refusal' in (await admission.admit('a'))).toBe(true)
    // A client with nothing in flight still gets in: the one asking for health, a new visitor.
    admitted(await admission.admit('b'))
    lag = 0
    admitted(await admission.admit('a'))
    first.release()
    // Many in flight in all: the same rule without any lag.
    for (const client of ['c', 'd', 'e', 'f']) admitted(await admission.admit(client))
    expect(admission.inFlight()).toBe(6)
    expect('refusal' in (await admission.admit('c'))).toBe(true)
  })

  it('refuses everyone with 503 when full', async () => {
    const admission = createAdmission({ ...limits, ratePoints: 0, busyInFlight: 100 }, () => 0)
    for (let client = 0; client < 8; client++) admitted(await admission.admit(`client-${client}`))
    expect(await admission.admit('newcomer')).toEqual({
      refusal: expect.objectContaining({ status: 503, code: 'service_unavailable', retryAfter: 1 }),
    })
  })
})
