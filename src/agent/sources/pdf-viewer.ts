import { UNSUPPORTED, type Unsupported } from '../marker'

export function pdfViewer(): boolean | Unsupported {
  return navigator.pdfViewerEnabled ?? UNSUPPORTED
}
