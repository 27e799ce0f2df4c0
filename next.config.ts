import type { NextConfig } from 'next'

// Every screen but /frame refuses to be framed. /frame's own frame-ancestors policy is
// computed per site key at request time (src/app/frame), so it is left out here.
const denyFraming = [
  { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
  { key: 'X-Frame-Options', value: 'DENY' },
]

const baseHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
]

const config: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino', 'rate-limiter-flexible', '@node-rs/argon2'],
  async headers() {
    return [
      { source: '/:path*', headers: baseHeaders },
      { source: '/((?!frame$|frame/).*)', headers: denyFraming },
      // The loader is fetched by other sites' pages: cacheable, and readable cross-origin.
      {
        source: '/agent.js',
        headers: [
          { key: 'Cache-Control', value: 'public, max-age=3600, stale-while-revalidate=86400' },
          { key: 'Access-Control-Allow-Origin', value: '*' },
          { key: 'Cross-Origin-Resource-Policy', value: 'cross-origin' },
        ],
      },
    ]
  },
}

export default config
