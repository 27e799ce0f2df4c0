import { describe, expect, it } from 'vitest'
import { addComeback, deviceRates, noVolatility, type Volatility } from './device-volatility'

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
