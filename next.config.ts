import type { NextConfig } from 'next'
import { baseHeaders, denyFraming } from './src/server/http/security-headers'

const config: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pg',
    'pino',
    'rate-limiter-flexible',
    '@node-rs/argon2',
    'maxmind',
  ],
  async headers() {
    return [
      { source: '/:path*', headers: baseHeaders },
      // /frame's frame-ancestors policy is computed per site key at request time (src/proxy.ts).
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
