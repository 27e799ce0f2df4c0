// Response headers for every screen and endpoint; next.config.ts applies them to what Next.js
// serves, serve-node-route.ts to what scripts/serve.mjs answers itself. No `server-only` here:
// next.config.ts imports this file.

export const baseHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
]

/** Every screen but /frame refuses to be framed; /frame computes its own policy per site key. */
export const denyFraming = [
  { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
  { key: 'X-Frame-Options', value: 'DENY' },
]
