import { afterEach, describe, expect, it, vi } from 'vitest'
import { partsOf, partsOverlap } from '@/server/identification/fingerprint-profile'

// Structured sources send their members or fields, not one hash of the whole, so that the server can
// compare them by overlap (a browser update adding one WebGL extension keeps the rest in common).

afterEach(() => {
  vi.unstubAllGlobals()
  vi.resetModules()
})

function stubWebgl(extensions: string[] | null, limits: Record<string, number> = {}) {
  const gl = {
    getSupportedExtensions: () => extensions,
    // Constants are their own names here, so getParameter can look a limit up by name.
    MAX_TEXTURE_SIZE: 'MAX_TEXTURE_SIZE',
    getParameter: (name: string) => limits[name] ?? 8,
    getShaderPrecisionFormat: () => ({ rangeMin: 127, rangeMax: 127, precision: 23 }),
  }
  vi.stubGlobal('document', { createElement: () => ({ getContext: () => gl }) })
}

function stubVoices(voices: { name: string; lang: string; localService: boolean }[] | undefined) {
  vi.stubGlobal('window', voices ? { speechSynthesis: { getVoices: () => voices } } : {})
}

describe('webglExtensions', () => {
  it('lists the extensions, sorted, and compares them as a set', async () => {
    stubWebgl(['OES_texture_float', 'EXT_color_buffer_half_float', 'WEBGL_lose_context'])
    const { webglExtensions } = await import('./webgl-extensions')
    const before = webglExtensions()
    expect(before).toEqual(['EXT_color_buffer_half_float', 'OES_texture_float', 'WEBGL_lose_context'])

    const after = [...(before as string[]), 'EXT_texture_filter_anisotropic']
    const overlap = partsOverlap(partsOf('webglExtensions', before), partsOf('webglExtensions', after))
    expect(overlap).toBe(3 / 4)
  })

  it('is unsupported without WebGL', async () => {
    stubWebgl(null)
    const { webglExtensions } = await import('./webgl-extensions')
    expect(webglExtensions()).toBe('unsupported')
  })
})

describe('webglParameters', () => {
  it('sends each limit as a field, so one raised limit keeps the others in common', async () => {
    stubWebgl([], { MAX_TEXTURE_SIZE: 8192 })
    const { webglParameters } = await import('./webgl-parameters')
    const before = webglParameters() as Record<string, number | number[]>
    expect(before.MAX_TEXTURE_SIZE).toBe(8192)
    expect(before['FRAGMENT_SHADER.HIGH_FLOAT']).toEqual([127, 127, 23])
    const fields = Object.keys(before).length
    expect(fields).toBe(28)

    const after = { ...before, MAX_TEXTURE_SIZE: 16384 }
    const overlap = partsOverlap(partsOf('webglParameters', before), partsOf('webglParameters', after))
    expect(overlap).toBeCloseTo((fields - 1) / (fields + 1))
  })
})

describe('speechVoices', () => {
  const voices = [
    { name: 'Daniel', lang: 'en-GB', localService: true },
    { name: 'Amélie', lang: 'fr-CA', localService: true },
    { name: 'Google US English', lang: 'en-US', localService: false },
  ]

  it('sends one short digest per voice, in a stable order', async () => {
    stubVoices(voices)
    const { speechVoices } = await import('./speech-voices')
    const value = await speechVoices()
    expect(value).toHaveLength(3)
    expect(await speechVoices()).toEqual(value)
    stubVoices([...voices].reverse())
    expect(await speechVoices()).toEqual(value)
    for (const digest of value as string[]) expect(digest).toMatch(/^[0-9a-z]{1,11}$/)
    expect(JSON.stringify(value)).not.toContain('Daniel')
  })

  it('keeps the voices in common when one is installed', async () => {
    stubVoices(voices)
    const { speechVoices } = await import('./speech-voices')
    const before = await speechVoices()
    stubVoices([...voices, { name: 'Anna', lang: 'de-DE', localService: true }])
    const after = await speechVoices()
    expect(partsOverlap(partsOf('speechVoices', before), partsOf('speechVoices', after))).toBe(3 / 4)
  })

  it('is unsupported without speech synthesis', async () => {
    stubVoices(undefined)
    const { speechVoices } = await import('./speech-voices')
    expect(await speechVoices()).toBe('unsupported')
  })
})
