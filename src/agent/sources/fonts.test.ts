// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { getter, withMockedProperties } from '../../../tests/support/browser-globals'
import { collectComponent, runSteps } from '../../../tests/support/collect-component'
import { fonts } from './fonts'

// happy-dom builds the real element tree but lays nothing out: these tests supply the layout.

type Size = [width: number, height: number]

const fallbacks: Record<string, Size> = { monospace: [520, 57], 'sans-serif': [470, 55] }

/**
 * A layout where the sample text measures the size of the first installed font of an element's
 * font-family list. It also notes whether every measured element was in the page when read.
 */
function withInstalledFonts<Result>(installed: Record<string, Size>, callback: () => Result) {
  const reads = { total: 0, detached: 0 }
  const sizeOf = (element: HTMLElement): Size => {
    reads.total++
    if (!element.isConnected) reads.detached++
    const families = element.style.fontFamily
      .split(',')
      .map((family) => family.trim().replace(/^['"]|['"]$/g, ''))
    for (const family of families) {
      const size = installed[family] ?? fallbacks[family]
      if (size) return size
    }
    return [0, 0]
  }
  const result = withMockedProperties(
    HTMLElement.prototype,
    {
      offsetWidth: getter(function (this: HTMLElement) {
        return sizeOf(this)[0]
      }),
      offsetHeight: getter(function (this: HTMLElement) {
        return sizeOf(this)[1]
      }),
    },
    callback,
  )
  return { result, reads }
}

describe('fonts', () => {
  it('lists the candidate fonts whose text measures differently from the fallbacks, in list order', () => {
    const { result } = withInstalledFonts(
      { 'Segoe UI': [498, 59], Consolas: [540, 57], Calibri: [455, 54], 'Not A Candidate': [1, 1] },
      () => runSteps(fonts()),
    )
    expect(result).toEqual(['Calibri', 'Consolas', 'Segoe UI'])
  })

  it('finds a font that matches one fallback exactly, by the other fallback', () => {
    // A monospace font with the very metrics of the default monospace still differs from sans-serif.
    const { result } = withInstalledFonts({ Menlo: fallbacks.monospace as Size }, () => runSteps(fonts()))
    expect(result).toEqual(['Menlo'])
  })

  it('finds a font that differs in height only', () => {
    const { result } = withInstalledFonts({ Roboto: [470, 60] }, () => runSteps(fonts()))
    expect(result).toEqual(['Roboto'])
  })

  it('is an empty list where no candidate is installed', () => {
    expect(withInstalledFonts({}, () => runSteps(fonts())).result).toEqual([])
  })

  it('measures every span while it is in the page, and leaves the page as it found it', () => {
    const before = document.body.innerHTML
    const { reads } = withInstalledFonts({ Ubuntu: [480, 56] }, () => runSteps(fonts()))
    expect(reads.total).toBeGreaterThan(80)
    expect(reads.detached).toBe(0)
    expect(document.body.innerHTML).toBe(before)
  })

  it('measures in the new body when the page replaced its own between two steps', () => {
    const steps = fonts()
    const { result, reads } = withInstalledFonts({ Ubuntu: [480, 56] }, () => {
      steps.next()
      const oldBody = document.body
      const newBody = document.createElement('body')
      document.documentElement.replaceChild(newBody, oldBody)
      try {
        return runSteps(steps)
      } finally {
        document.documentElement.replaceChild(oldBody, newBody)
      }
    })
    expect(result).toEqual(['Ubuntu'])
    expect(reads.detached).toBe(0)
  })

  it('throws before the page has a body (an agent run from <head>), and collect records the error', async () => {
    await withMockedProperties(document, { body: null }, async () => {
      expect(() => runSteps(fonts())).toThrow(TypeError)
      expect(await collectComponent('fonts')).toEqual({
        error: expect.stringMatching(/^TypeError: Cannot read properties of null \(reading 'appendChild'\)/),
        duration: expect.any(Number),
      })
    })
  })
})
