// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { withMockedProperties } from '../../../tests/support/browser-globals'
import { collectComponent, runSteps } from '../../../tests/support/collect-component'
import { fontPreferences } from './font-preferences'

// happy-dom builds the real element tree but lays nothing out: these tests supply the layout.

/** A layout in which the sample text is as wide as the browser's font for each generic family. */
function withTextWidths<Result>(widths: Record<string, number>, callback: () => Result): Result {
  function getBoundingClientRect(this: HTMLElement) {
    const family = this.style.fontFamily || 'default'
    const width = this.style.fontSize === '1px' ? (widths.min ?? 0) : (widths[family] ?? 0)
    return { x: 0, y: 0, top: 0, left: 0, right: width, bottom: 18, width, height: 18 }
  }
  return withMockedProperties(HTMLElement.prototype, { getBoundingClientRect }, callback)
}

// Chrome on Windows: Times New Roman, Arial, Consolas, Segoe UI.
const windowsWidths = {
  default: 265.671_875,
  serif: 265.671_875,
  'sans-serif': 282.890_625,
  monospace: 369.6,
  'system-ui': 279.453_125,
  min: 41.005,
}

describe('fontPreferences', () => {
  it('is the sample’s width, to two decimals, in the default font, each generic family and the minimum size', () => {
    expect(withTextWidths(windowsWidths, () => runSteps(fontPreferences()))).toEqual({
      default: 265.67,
      serif: 265.67,
      sans: 282.89,
      mono: 369.6,
      system: 279.45,
      min: 41.01,
    })
  })

  it('tells a changed default font or minimum font size apart', () => {
    const biggerMinimum = withTextWidths({ ...windowsWidths, min: 92.5 }, () => runSteps(fontPreferences()))
    expect(biggerMinimum).toMatchObject({ default: 265.67, min: 92.5 })
  })

  it('leaves the page as it found it', () => {
    const before = document.body.innerHTML
    withTextWidths(windowsWidths, () => runSteps(fontPreferences()))
    expect(document.body.innerHTML).toBe(before)
  })

  it('throws before the page has a body (an agent run from <head>), and collect records the error', async () => {
    await withMockedProperties(document, { body: null }, async () => {
      expect(() => runSteps(fontPreferences())).toThrow(TypeError)
      expect(await collectComponent('fontPreferences')).toEqual({
        error: expect.stringMatching(/^TypeError: Cannot read properties of null \(reading 'appendChild'\)/),
        duration: expect.any(Number),
      })
    })
  })
})
