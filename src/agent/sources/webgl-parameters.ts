import { hash, UNSUPPORTED, type Unsupported } from '../marker'
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

/** Implementation limits and shader precisions, hashed; they vary with GPU and driver. */
export function webglParameters(): string | Unsupported {
  const gl = webglContext()
  if (!gl) return UNSUPPORTED
  const values: unknown[] = names.map((name) => {
    const value = gl.getParameter(gl[name])
    return ArrayBuffer.isView(value) ? Array.from(value as Float32Array) : value
  })
  for (const shader of [gl.VERTEX_SHADER, gl.FRAGMENT_SHADER]) {
    for (const precision of [gl.LOW_FLOAT, gl.MEDIUM_FLOAT, gl.HIGH_FLOAT, gl.HIGH_INT]) {
      const format = gl.getShaderPrecisionFormat(shader, precision)
      values.push(format ? [format.rangeMin, format.rangeMax, format.precision] : null)
    }
  }
  return hash(JSON.stringify(values))
}
