import path from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src'),
      // `server-only` throws outside React Server Components; unit tests are server code too.
      'server-only': path.resolve(import.meta.dirname, 'tests/support/empty-module.ts'),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/unit/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/support/postgres-server.ts'],
    // Route handlers under test open the process-wide database: an in-memory PGlite per test file.
    env: { TESSERA_DATA_DIR: 'memory://', TESSERA_LOG_LEVEL: 'silent' },
    // Matching tests weigh hundreds of devices against each other: seconds each, tens on a loaded machine.
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
})
