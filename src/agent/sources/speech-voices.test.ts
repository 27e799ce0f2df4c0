import { describe, expect, it } from 'vitest'
import { partsOf, partsOverlap } from '@/server/identification/fingerprint-profile'
import { absent, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { speechVoices } from './speech-voices'

// A structured source: one digest per voice, so that the server compares them as a set (a voice
// installed keeps the others in common).

type Voice = { name: string; lang: string; localService: boolean }

const voices: Voice[] = [
  { name: 'Daniel', lang: 'en-GB', localService: true },
  { name: 'Amélie', lang: 'fr-CA', localService: true },
  { name: 'Google US English', lang: 'en-US', localService: false },
]

/** speechSynthesis with these voices; `loadedAfter` ms before they load (Chrome loads them late). */
function synthesis(installed: Voice[], loadedAfter?: number) {
  let loaded = loadedAfter === undefined
  const listeners: (() => void)[] = []
  if (loadedAfter !== undefined)
    setTimeout(() => {
      loaded = true
      for (const listener of listeners) listener()
    }, loadedAfter)
  return {
    getVoices: () => (loaded ? installed : []),
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'voiceschanged') listeners.push(listener)
    },
  }
}

const withVoices = <Result>(speech: unknown, callback: () => Result) =>
  withMockedWindow({ speechSynthesis: speech }, callback)

describe('speechVoices', () => {
  it('sends one short digest per voice, in a stable order', async () => {
    const value = await withVoices(synthesis(voices), () => speechVoices())
    expect(value).toHaveLength(3)
    expect(await withVoices(synthesis(voices), () => speechVoices())).toEqual(value)
    expect(await withVoices(synthesis([...voices].reverse()), () => speechVoices())).toEqual(value)
    for (const digest of value as string[]) expect(digest).toMatch(/^[0-9a-z]{1,11}$/)
    expect(JSON.stringify(value)).not.toContain('Daniel')
  })

  it('tells a local voice from the same voice served online', async () => {
    const local = await withVoices(synthesis([{ name: 'Anna', lang: 'de-DE', localService: true }]), () =>
      speechVoices(),
    )
    const online = await withVoices(synthesis([{ name: 'Anna', lang: 'de-DE', localService: false }]), () =>
      speechVoices(),
    )
    expect(local).not.toEqual(online)
  })

  it('keeps the voices in common when one is installed', async () => {
    const before = await withVoices(synthesis(voices), () => speechVoices())
    const installed = [...voices, { name: 'Anna', lang: 'de-DE', localService: true }]
    const after = await withVoices(synthesis(installed), () => speechVoices())
    expect(partsOverlap(partsOf('speechVoices', before), partsOf('speechVoices', after))).toBe(3 / 4)
  })

  it('waits for voices that load late (voiceschanged), and gives up on an empty list after 30 ms', async () => {
    const early = await withVoices(synthesis(voices), () => speechVoices())
    expect(await withVoices(synthesis(voices, 5), () => speechVoices())).toEqual(early)
    const started = performance.now()
    expect(await withVoices(synthesis(voices, 1_000), () => speechVoices())).toEqual([])
    expect(performance.now() - started).toBeLessThan(500)
  })

  it('is unsupported without speech synthesis', async () => {
    expect(await withVoices(absent, () => speechVoices())).toBe('unsupported')
    expect(await withMockedWindow({}, () => speechVoices())).toBe('unsupported')
  })

  it('rejects where getVoices throws, and collect records the error', async () => {
    const failing = {
      getVoices: () => {
        throw new Error('speech service unavailable')
      },
    }
    await withVoices(failing, async () => {
      await expect(speechVoices()).rejects.toThrow('speech service unavailable')
      expect(await collectComponent('speechVoices')).toEqual({
        error: 'Error: speech service unavailable',
        duration: expect.any(Number),
      })
    })
  })
})
