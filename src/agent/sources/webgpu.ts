import { UNSUPPORTED, type Unsupported } from '../unsupported'

interface AdapterInfo {
  vendor: string
  architecture: string
  device: string
  description: string
}
type Gpu = { requestAdapter(): Promise<{ info?: AdapterInfo; features?: Set<string> } | null> }

/** WebGPU adapter information where WebGPU exists. */
export async function webgpu() {
  const gpu = (navigator as Navigator & { gpu?: Gpu }).gpu
  if (!gpu) return UNSUPPORTED as Unsupported
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
