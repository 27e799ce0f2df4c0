import { UNSUPPORTED, type Unsupported } from '../unsupported'
import { webglContext } from './webgl'

interface AdapterInfo {
  vendor: string
  architecture: string
  device: string
  description: string
}
type Gpu = { requestAdapter(): Promise<{ info?: AdapterInfo; features?: Set<string> } | null> }

/** Renderers that mean no GPU: browsers offer WebGPU no adapter there. */
const SOFTWARE_RENDERER = /SwiftShader|llvmpipe|softpipe|Software Adapter|Basic Render/i

/**
 * Whether WebGL runs without a GPU. There a browser has no WebGPU adapter to give, and asking for
 * one makes it write "No available adapters." into the page's console: an embed stays silent.
 * Without WebGL nothing is known, and WebGPU is asked as before.
 */
function withoutGpu(): boolean {
  const gl = webglContext()
  if (!gl) return false
  const debug = gl.getExtension('WEBGL_debug_renderer_info')
  return SOFTWARE_RENDERER.test(String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER)))
}

/** WebGPU adapter information where WebGPU exists. */
export async function webgpu() {
  const gpu = (navigator as Navigator & { gpu?: Gpu }).gpu
  if (!gpu) return UNSUPPORTED as Unsupported
  if (withoutGpu()) return 'no-adapter'
  const adapter = await gpu.requestAdapter()
  if (!adapter) return 'no-adapter'
  const info = adapter.info
  return {
    vendor: info?.vendor ?? '',
    architecture: info?.architecture ?? '',
    device: info?.device ?? '',
    description: info?.description ?? '',
    features: adapter.features?.size ?? 0,
  }
}
