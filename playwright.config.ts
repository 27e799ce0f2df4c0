import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './tests/support/chromium'

const e2ePort = Number(process.env.TESSERA_E2E_PORT ?? 3100)

// One Tessera production server is started by the global setup for every spec;
// its URL reaches the specs as `baseURL` and its log path as TESSERA_E2E_LOG.
export default defineConfig({
  testDir: './tests',
  testMatch: ['e2e/**/*.spec.ts', 'agent/**/*.spec.ts'],
  fullyParallel: false,
  // One worker: the specs share one server whose rules and counters are global state.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  globalSetup: './tests/support/global-setup.ts',
  // Artifacts in a subfolder: Playwright empties outputDir, and Vitest's report sits beside it.
  outputDir: './test-results/playwright',
  use: {
    baseURL: `http://127.0.0.1:${e2ePort}`,
    launchOptions: chromiumLaunchOptions(),
    trace: 'off',
  },
  projects: [
    { name: 'e2e', testDir: './tests/e2e' },
    { name: 'agent', testDir: './tests/agent' },
  ],
})
