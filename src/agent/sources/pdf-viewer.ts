import { UNSUPPORTED, type Unsupported } from '../unsupported'

export function pdfViewer(): boolean | Unsupported {
  return navigator.pdfViewerEnabled ?? UNSUPPORTED
}
