import { hash, UNSUPPORTED, type Unsupported } from '../marker'
import { webglContext } from './webgl'

export function webglExtensions(): { count: number; hash: string } | Unsupported {
  const extensions = webglContext()?.getSupportedExtensions()
  if (!extensions) return UNSUPPORTED
  return { count: extensions.length, hash: hash(extensions.join()) }
}
