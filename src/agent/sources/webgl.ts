let cached: WebGLRenderingContext | null | undefined

/** One shared WebGL context for the WebGL sources: creating one is the expensive part. */
export function webglContext(): WebGLRenderingContext | null {
  if (cached === undefined) {
    const canvas = document.createElement('canvas')
    try {
      cached = (canvas.getContext('webgl') ??
        canvas.getContext('experimental-webgl')) as WebGLRenderingContext | null
    } catch {
      cached = null
    }
  }
  return cached
}
