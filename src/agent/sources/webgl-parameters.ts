import { UNSUPPORTED, type Unsupported } from '../unsupported'
import { webglContext } from './webgl'

const names = [
  'MAX_TEXTURE_SIZE',
  'MAX_CUBE_MAP_TEXTURE_SIZE',
  'MAX_RENDERBUFFER_SIZE',
  'MAX_VIEWPORT_DIMS',
  'MAX_VERTEX_ATTRIBS',
  'MAX_VERTEX_UNIFORM_VECTORS',
  'MAX_FRAGMENT_UNIFORM_VECTORS',
  'MAX_VARYING_VECTORS',
  'MAX_TEXTURE_IMAGE_UNITS',
  'MAX_VERTEX_TEXTURE_IMAGE_UNITS',
  'MAX_COMBINED_TEXTURE_IMAGE_UNITS',
  'ALIASED_LINE_WIDTH_RANGE',
  'ALIASED_POINT_SIZE_RANGE',
  'RED_BITS',
  'GREEN_BITS',
  'BLUE_BITS',
  'ALPHA_BITS',
  'DEPTH_BITS',
  'STENCIL_BITS',
  'SUBPIXEL_BITS',
] as const

const precisions = ['LOW_FLOAT', 'MEDIUM_FLOAT', 'HIGH_FLOAT', 'HIGH_INT'] as const

/**
 * Implementation limits and shader precisions, one field each: they vary with GPU and driver,
 * and the server compares them field by field, so a driver update that raises one limit keeps
 * the others in common.
 */
type Parameter = number | boolean | string | number[] | null

export function webglParameters(): Record<string, Parameter> | Unsupported {
  const gl = webglContext()
  if (!gl) return UNSUPPORTED
  const values: Record<string, Parameter> = {}
  for (const name of names) {
    const value: Parameter | ArrayBufferView = gl.getParameter(gl[name])
    values[name] = ArrayBuffer.isView(value) ? Array.from(value as Float32Array) : value
  }
  for (const shader of ['VERTEX_SHADER', 'FRAGMENT_SHADER'] as const) {
    for (const precision of precisions) {
      const format = gl.getShaderPrecisionFormat(gl[shader], gl[precision])
      values[`${shader}.${precision}`] = format ? [format.rangeMin, format.rangeMax, format.precision] : null
    }
  }
  return values
}
