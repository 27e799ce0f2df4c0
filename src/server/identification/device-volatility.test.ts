import { describe, expect, it } from 'vitest'
import {
  addComeback,
  deviceRates,
  noVolatility,
  readVolatility,
  UNDO_SHARE,
  type Volatility,
} from './device-volatility'

const population = { change: 0.2, close: 0.9 }

/** A device's record after `comebacks` comebacks, `changing` in each of them. */
function history(comebacks: number, changing: Parameters<typeof addComeback>[1] = []): Volatility {
  let volatility = noVolatility
  for (let comeback = 0; comeback < comebacks; comeback++) volatility = addComeback(volatility, changing)
  return volatility
}

describe('deviceRates', () => {
  it("moves a facet's rate by what the device did: a device that keeps its appearance is less likely to switch", () => {
    expect(deviceRates(population, noVolatility, 'colorScheme').change).toBeCloseTo(0.2)
    expect(deviceRates(population, history(20), 'colorScheme').change).toBeCloseTo((4 * 0.2) / 24)
    expect(deviceRates(population, history(6, ['colorScheme']), 'colorScheme').change).toBeGreaterThan(0.5)
  })

  it("never lowers a browser's rate below the population's: updates come on the vendor's schedule", () => {
    // Twenty visits in a week without an update: the next update is as likely as for anyone.
    expect(deviceRates(population, history(20), 'browser').change).toBeCloseTo(0.2)
    expect(deviceRates(population, history(20, ['colorScheme']), 'browser').change).toBeCloseTo(0.2)
    // A device seen updating at most visits (a nightly build) is likelier than most to update again.
    expect(deviceRates(population, history(6, ['browser']), 'browser').change).toBeGreaterThan(0.5)
    expect(deviceRates(population, history(20), 'browser').close).toBe(0.9)
  })
})

describe('novel changes (to a value the device had not shown before)', () => {
  it('are told from returns: a device switching between two values is likely to switch, not to show a third', () => {
    // A language added, dropped, added again, dropped again: one value it had not shown, three returns.
    let toggler = addComeback(history(2), ['locale'], ['locale'])
    for (let comeback = 0; comeback < 3; comeback++) toggler = addComeback(toggler, ['locale'], [])
    expect(toggler.changed.locale).toBe(4)
    expect(toggler.novel?.locale).toBe(1)
    const rates = deviceRates(population, toggler, 'locale')
    expect(rates.change).toBeCloseTo((4 + 4 * 0.2) / 10)
    expect(rates.novel).toBeCloseTo((1 + 4 * 0.2) / 10)
    // A traveller whose every trip goes somewhere new keeps a high rate of new values.
    const traveller = history(6, ['time'])
    expect(deviceRates(population, traveller, 'time').novel).toBeCloseTo(
      deviceRates(population, traveller, 'time').change,
    )
    // Without a record, a new value is as likely as any change.
    expect(deviceRates(population, noVolatility, 'locale').novel).toBeCloseTo(0.2)
  })

  it('count every change of a record kept before they were counted, as it weighed then', () => {
    const old: Volatility = { comebacks: 4, changed: { locale: 3 } }
    expect(deviceRates(population, old, 'locale').novel).toBeCloseTo(
      deviceRates(population, old, 'locale').change,
    )
    expect(addComeback(old, ['locale'], []).novel).toEqual({ locale: 3 })
    expect(readVolatility({ comebacks: 3, changed: { time: 2 }, novel: { time: 1 } })).toEqual({
      comebacks: 3,
      changed: { time: 2 },
      novel: { time: 1 },
    })
    expect(readVolatility({ comebacks: 3, changed: { time: 2 }, novel: [1] })).toEqual({
      comebacks: 3,
      changed: { time: 2 },
    })
    // Only whole counts of known facets, within the comebacks, are read back.
    expect(
      readVolatility({
        comebacks: 3,
        changed: { time: 2 },
        novel: { time: 'x', locale: 9, zoom: 1, nonsense: 1 },
      }),
    ).toEqual({ comebacks: 3, changed: { time: 2 }, novel: { zoom: 1 } })
  })
})

describe('outings (the facets a comeback moved to a value not seen before)', () => {
  it('are remembered until the next comeback; a value the device came back to is not one', () => {
    const trip = addComeback(history(2), ['time', 'colorScheme'], ['time'])
    expect(trip.recent).toEqual(['time'])
    expect(deviceRates(population, trip, 'time').undo).toBe(UNDO_SHARE)
    expect(deviceRates(population, trip, 'colorScheme').undo).toBe(0)
    // Home again: that comeback moved the time zone back, to a value seen before.
    const home = addComeback(trip, ['time'], [])
    expect(home.recent).toBeUndefined()
    expect(deviceRates(population, home, 'time').undo).toBe(0)
    expect(home.changed.time).toBe(2)
  })

  it('are those of the departed facets the caller names (an update is none), novel all the same', () => {
    const updated = addComeback(history(2), ['browser', 'time'], ['browser', 'time'], 1, ['time'])
    expect(updated.recent).toEqual(['time'])
    expect(updated.novel?.browser).toBe(1)
    expect(deviceRates(population, updated, 'browser').undo).toBe(0)
    expect(addComeback(history(2), ['browser'], ['browser'], 1, []).recent).toBeUndefined()
  })

  it('count as much as the match that saw them was likely right', () => {
    // A comeback matched at 0.6 may have been another device: its differences are no outing of this one.
    const unsure = addComeback(history(2), ['time'], ['time'], 0.6)
    expect(deviceRates(population, unsure, 'time').undo).toBeCloseTo(UNDO_SHARE * 0.6)
    expect(readVolatility(JSON.parse(JSON.stringify(unsure)))).toEqual(unsure)
    expect(addComeback(history(2), ['time'], ['time'], 1).recentWeight).toBeUndefined()
  })

  it('are read back from what was stored, unknown facets left out', () => {
    expect(readVolatility({ comebacks: 3, changed: { time: 1 }, recent: ['time', 'nonsense', 7] })).toEqual({
      comebacks: 3,
      changed: { time: 1 },
      recent: ['time'],
    })
    // A record stored before outings were kept.
    expect(readVolatility({ comebacks: 3, changed: { time: 1 } })).toEqual({
      comebacks: 3,
      changed: { time: 1 },
    })
  })
})
