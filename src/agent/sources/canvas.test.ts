import { describe, expect, it } from 'vitest'
import { withMockedGlobals } from '../../../tests/support/browser-globals'
import { collectComponent, runSteps } from '../../../tests/support/collect-component'
import { hash } from '../hash'
import { canvas } from './canvas'

interface Machine {
  /** What this machine's rasteriser adds to every image (fonts, anti-aliasing, GPU). */
  rendering: string
  /** isPointInPath for the even-odd probe; a browser without even-odd winding answers true. */
  evenOddInside?: boolean
  /** A privacy tool's noise: a different image on every read. */
  noise?: boolean
  /** getContext('2d') answers null (canvas disabled). */
  no2d?: boolean
}

/**
 * A document whose canvases record what is drawn on them; toDataURL encodes the drawing, the size
 * and the machine's rendering. `images` keeps each canvas's data URLs, so a test can tell which
 * image the source hashed into which field.
 */
function canvasDocument(machine: Machine) {
  const images: { width: number; reads: string[] }[] = []
  let reads = 0
  const document = {
    createElement(tag: string) {
      if (tag !== 'canvas') throw new Error(`this fake document makes canvases only, not ${tag}`)
      const drawn: string[] = []
      const record =
        (operation: string) =>
        (...args: unknown[]) => {
          drawn.push(`${operation}(${args.join(',')})`)
        }
      const context = {
        rect: record('rect'),
        isPointInPath: () => machine.evenOddInside ?? false,
        fillRect: record('fillRect'),
        fillText: record('fillText'),
        beginPath: record('beginPath'),
        arc: record('arc'),
        closePath: record('closePath'),
        fill: record('fill'),
      }
      const element = {
        width: 300,
        height: 150,
        getContext: (type: string) => (type === '2d' && !machine.no2d ? context : null),
        toDataURL() {
          const noise = machine.noise ? `;noise=${++reads}` : ''
          const image = `${element.width}x${element.height};${machine.rendering};${drawn.join(';')}${noise}`
          const url = `data:image/png;base64,${Buffer.from(image).toString('base64')}`
          const kept = images.find((entry) => entry.width === element.width) ?? {
            width: element.width,
            reads: [],
          }
          if (!images.includes(kept)) images.push(kept)
          kept.reads.push(url)
          return url
        },
      }
      return element
    },
  }
  return { document, images }
}

describe('canvas', () => {
  it('is the winding rule and one digest per image: the text (240 wide) and the geometry (122 wide)', () => {
    const { document, images } = canvasDocument({ rendering: 'skia/linux/dejavu' })
    const value = withMockedGlobals({ document }, () => runSteps(canvas()))
    const text = images.find((image) => image.width === 240)?.reads[0] ?? ''
    const geometry = images.find((image) => image.width === 122)?.reads[0] ?? ''
    expect(value).toEqual({ winding: true, text: hash(text), geometry: hash(geometry) })
    // Each image is read twice, to see noise.
    expect(images.map((image) => image.reads.length)).toEqual([2, 2])
  })

  it('differs between machines that render differently, and repeats on one machine', () => {
    const render = (rendering: string) =>
      withMockedGlobals({ document: canvasDocument({ rendering }).document }, () => runSteps(canvas()))
    expect(render('skia/linux/dejavu')).toEqual(render('skia/linux/dejavu'))
    expect(render('skia/linux/dejavu')).not.toEqual(render('coregraphics/macos/helvetica'))
  })

  it('reports no even-odd winding where the probe point counts as inside', () => {
    const { document } = canvasDocument({ rendering: 'old', evenOddInside: true })
    expect(withMockedGlobals({ document }, () => runSteps(canvas()))).toMatchObject({ winding: false })
  })

  it('is { randomized: true } where two reads of one image differ (noise added by a privacy tool)', () => {
    const { document } = canvasDocument({ rendering: 'skia', noise: true })
    expect(withMockedGlobals({ document }, () => runSteps(canvas()))).toEqual({ randomized: true })
  })

  it('is unsupported without a 2D context', () => {
    const { document } = canvasDocument({ rendering: 'skia', no2d: true })
    expect(withMockedGlobals({ document }, () => runSteps(canvas()))).toBe('unsupported')
  })

  it('throws where reading an image throws, and collect records the error', async () => {
    const { document } = canvasDocument({ rendering: 'skia' })
    const refusing = {
      createElement: (tag: string) =>
        Object.assign(document.createElement(tag), {
          toDataURL: () => {
            throw new DOMException('The canvas has been tainted by cross-origin data.', 'SecurityError')
          },
        }),
    }
    await withMockedGlobals({ document: refusing }, async () => {
      expect(() => runSteps(canvas())).toThrow('tainted')
      expect(await collectComponent('canvas')).toEqual({
        error: 'SecurityError: The canvas has been tainted by cross-origin data.',
        duration: expect.any(Number),
      })
    })
  })
})
