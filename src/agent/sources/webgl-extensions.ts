import { UNSUPPORTED, type Unsupported } from '../unsupported'
import { webglContext } from './webgl'

/** The WebGL extensions this browser supports, by name and sorted: the server compares them as a set. */
export function webglExtensions(): string[] | Unsupported {
  const extensions = webglContext()?.getSupportedExtensions()
  if (!extensions) return UNSUPPORTED
  return [...extensions].sort()
}
