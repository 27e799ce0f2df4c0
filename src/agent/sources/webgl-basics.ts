import { UNSUPPORTED, type Unsupported } from '../unsupported'
import { webglContext } from './webgl'

/** GPU vendor and renderer, unmasked where the browser allows it. */
export function webglBasics() {
  const gl = webglContext()
  if (!gl) return UNSUPPORTED as Unsupported
  const debug = gl.getExtension('WEBGL_debug_renderer_info')
  return {
    version: String(gl.getParameter(gl.VERSION)),
    shadingLanguage: String(gl.getParameter(gl.SHADING_LANGUAGE_VERSION)),
    vendor: String(gl.getParameter(gl.VENDOR)),
    renderer: String(gl.getParameter(gl.RENDERER)),
    unmaskedVendor: debug ? String(gl.getParameter(debug.UNMASKED_VENDOR_WEBGL)) : null,
    unmaskedRenderer: debug ? String(gl.getParameter(debug.UNMASKED_RENDERER_WEBGL)) : null,
  }
}
