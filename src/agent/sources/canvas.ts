import { hash } from '../hash'
import { UNSUPPORTED, type Unsupported } from '../unsupported'

type CanvasValue = { winding: boolean; text: string; geometry: string } | { randomized: true } | Unsupported

/** Draws one image, a step per line of text (each a font fallback's lookup, the slow part). */
function* render(kind: 'text' | 'geometry'): Generator<void, HTMLCanvasElement> {
  const canvas = document.createElement('canvas')
  const context = canvas.getContext('2d')
  if (!context) return canvas
  if (kind === 'text') {
    canvas.width = 240
    canvas.height = 60
    context.textBaseline = 'alphabetic'
    context.fillStyle = '#f60'
    context.fillRect(100, 1, 62, 20)
    context.fillStyle = '#069'
    // Mixed scripts and an emoji exercise font fallback and sub-pixel rendering.
    context.font = '11pt "Times New Roman"'
    context.fillText('Cwm fjordbank gly 😃 ﷽', 2, 15)
    yield
    context.fillStyle = 'rgba(102, 204, 0, 0.2)'
    context.font = '18pt Arial'
    context.fillText('Cwm fjordbank gly 😃', 4, 45)
  } else {
    canvas.width = 122
    canvas.height = 110
    context.globalCompositeOperation = 'multiply'
    for (const [color, x, y] of [
      ['#f2f', 40, 40],
      ['#2ff', 80, 40],
      ['#ff2', 60, 80],
    ] as const) {
      context.fillStyle = color
      context.beginPath()
      context.arc(x, y, 40, 0, Math.PI * 2, true)
      context.closePath()
      context.fill()
    }
    context.fillStyle = '#f9c'
    context.arc(60, 60, 60, 0, Math.PI * 2, true)
    context.arc(60, 60, 20, 0, Math.PI * 2, true)
    context.fill('evenodd')
  }
  return canvas
}

/**
 * Canvas 2D text and geometry rendering. Each image is read twice: privacy tools add random noise
 * when a canvas is read, so two different reads mark the canvas as randomised. A stepped source:
 * the probe, each line of text, the geometry and each read (a PNG encoding) are steps, with the
 * page's turn in between (see collect).
 */
export function* canvas(): Generator<void, CanvasValue> {
  const probe = document.createElement('canvas').getContext('2d')
  if (!probe) return UNSUPPORTED
  probe.rect(0, 0, 10, 10)
  probe.rect(2, 2, 6, 6)
  const winding = !probe.isPointInPath(5, 5, 'evenodd')
  yield
  const textCanvas = yield* render('text')
  yield
  const geometryCanvas = yield* render('geometry')
  yield
  const text = textCanvas.toDataURL()
  yield
  const geometry = geometryCanvas.toDataURL()
  yield
  const textAgain = textCanvas.toDataURL()
  yield
  if (text !== textAgain || geometry !== geometryCanvas.toDataURL()) return { randomized: true }
  return { winding, text: hash(text), geometry: hash(geometry) }
}
