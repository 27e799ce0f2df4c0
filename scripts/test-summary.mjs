// Adds up Vitest's and Playwright's JSON reports into the one closing line CI reads.
import { existsSync, readFileSync } from 'node:fs'
import { stripVTControlCharacters } from 'node:util'

let passed = 0
let failed = 0
let skipped = 0
const missing = []
// The failures' names, printed just above the closing line, so a CI log's tail says what failed.
const failures = []
/** An error's first line, without the terminal's colours. */
const firstLine = (text) => stripVTControlCharacters(String(text ?? 'no message')).split('\n')[0]

const vitestFile = 'test-results/vitest.json'
if (existsSync(vitestFile)) {
  const report = JSON.parse(readFileSync(vitestFile, 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0)
  skipped += report.numPendingTests + report.numTodoTests
  // A suite that failed to load has no tests to count; count it as a failure.
  for (const suite of report.testResults) {
    const file = suite.name.replace(`${process.cwd()}/`, '')
    if (suite.status === 'failed' && suite.assertionResults.length === 0) {
      failed += 1
      failures.push(`vitest: ${file} did not load: ${firstLine(suite.message)}`)
    }
    for (const test of suite.assertionResults)
      if (test.status === 'failed')
        failures.push(`vitest: ${file} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`)
  }
} else missing.push('Vitest')

const playwrightFile = 'test-results/playwright.json'
if (existsSync(playwrightFile)) {
  const { stats, errors, suites } = JSON.parse(readFileSync(playwrightFile, 'utf8'))
  passed += stats.expected + stats.flaky
  failed += stats.unexpected + (errors?.length ?? 0)
  skipped += stats.skipped
  const walk = (suite) => {
    for (const child of suite.suites ?? []) walk(child)
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) {
        // The test's verdict, not its attempts': 'unexpected' failed, 'flaky' passed on a retry.
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue
        const failedRun = test.results.find((result) => result.error) ?? test.results[0]
        const verdict = test.status === 'flaky' ? 'flaky (passed on a retry)' : 'failed'
        failures.push(
          `playwright ${verdict}: ${spec.file}:${spec.line} > ${spec.title}: ${firstLine(failedRun?.error?.message ?? failedRun?.status)}`,
        )
      }
  }
  for (const suite of suites ?? []) walk(suite)
  for (const error of errors ?? []) failures.push(`playwright: ${firstLine(error.message ?? error.value)}`)
} else missing.push('Playwright')

for (const runner of missing) {
  console.error(`${runner} wrote no report: counting it as one failure.`)
  failed += 1
}
for (const line of failures) console.log(line.slice(0, 400))
if (skipped) console.log(`${skipped} skipped`)
// The last line is the one CI reads: exactly "N passed, N failed".
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
