// Adds up Vitest's and Playwright's JSON reports into the one closing line CI reads.
import { existsSync, readFileSync } from 'node:fs'

let passed = 0
let failed = 0
let skipped = 0
const missing = []

const vitestFile = 'test-results/vitest.json'
if (existsSync(vitestFile)) {
  const report = JSON.parse(readFileSync(vitestFile, 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0)
  skipped += report.numPendingTests + report.numTodoTests
  // A suite that failed to load has no tests to count; count it as a failure.
  failed += report.testResults.filter(
    (suite) => suite.status === 'failed' && suite.assertionResults.length === 0,
  ).length
} else missing.push('Vitest')

const playwrightFile = 'test-results/playwright.json'
if (existsSync(playwrightFile)) {
  const { stats, errors } = JSON.parse(readFileSync(playwrightFile, 'utf8'))
  passed += stats.expected + stats.flaky
  failed += stats.unexpected + (errors?.length ?? 0)
  skipped += stats.skipped
} else missing.push('Playwright')

for (const runner of missing) {
  console.error(`${runner} wrote no report: counting it as one failure.`)
  failed += 1
}
if (skipped) console.log(`${skipped} skipped`)
// The last line is the one CI reads: exactly "N passed, N failed".
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
