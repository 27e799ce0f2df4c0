import { fileURLToPath } from 'node:url'

/** @type {import('next').NextConfig} */
export default {
  // This app stands alone: not part of the Tessera repository it sits in.
  turbopack: { root: fileURLToPath(new URL('.', import.meta.url)) },
}
