#!/usr/bin/env bash
# `npm test`: every test (unit, storage on PGlite and PostgreSQL, end-to-end in Chromium),
# with its own set-up on a fresh Debian machine, ending with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }
apt_updated=""
apt_install() {
  [ -n "$apt_updated" ] || { as_root apt-get update -qq && apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

[ -d node_modules ] || npm ci --no-audit --no-fund || exit 1

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null; then
  echo "Installing Chromium from Debian (once)…"
  apt_install chromium || { echo "No Chromium: install it (apt-get install -y chromium) or set CHROMIUM_PATH." >&2; exit 1; }
fi

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "Installing PostgreSQL from Debian for the storage tests (once)…"
  apt_install postgresql || echo "PostgreSQL could not be installed: the PostgreSQL storage tests will be skipped." >&2
fi

echo "Building Tessera…"
npm run build --silent >test-results-build.log 2>&1 || { cat test-results-build.log; exit 1; }
rm -f test-results-build.log

mkdir -p test-results
rm -f test-results/vitest.json test-results/playwright.json
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
npx playwright test
node scripts/test-summary.mjs
