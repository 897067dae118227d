#!/usr/bin/env bash
# The README's second command (and CI's): set up, then run every test suite on the real Docker.
#   unit       pure functions (table tests), no Docker
#   integration  the runtime, the engine and the CLI on the real Docker
#   webview    the lifecycle panel rendered in headless Chromium
#   e2e        the packaged extension in a real VS Code (code-server + Chromium)
# PODLAB_SKIP_E2E=1 skips the e2e suite (it installs code-server on first use).
set -euo pipefail
shopt -s nullglob globstar
cd "$(dirname "$0")/.."
bash scripts/setup.sh

export PODLAB_STATE_DIR=${PODLAB_STATE_DIR:-$(mktemp -d /tmp/podlab-state-XXXXXX)}

echo "== type check" >&2
npx tsc -p . --noEmit

suites=(test/unit/**/*.test.ts test/integration/*.test.ts)
[ -d test/webview ] && suites+=(test/webview/*.test.ts)
if [ "${PODLAB_SKIP_E2E:-0}" != 1 ] && [ -d test/e2e ] && ls test/e2e/*.test.ts >/dev/null 2>&1; then
  echo "== packaging the extension and preparing code-server for e2e" >&2
  npm run package >&2
  bash scripts/code-server.sh >&2
  suites+=(test/e2e/*.test.ts)
fi
# Last: nothing the suites started may be left behind.
suites+=(test/leftovers.test.ts)

files=()
for pattern in "${suites[@]}"; do for f in $pattern; do files+=("$f"); done; done
# Unique, in order.
mapfile -t files < <(printf '%s\n' "${files[@]}" | awk '!seen[$0]++')

status=0
# The usual report (spec on a terminal, TAP otherwise), then a summary of the failures at the end.
reporter=tap
[ -t 1 ] && reporter=spec
node --import tsx --test --test-concurrency=1 \
  --test-reporter="$reporter" --test-reporter-destination=stdout \
  --test-reporter=./scripts/failures-reporter.mjs --test-reporter-destination=stdout \
  "${files[@]}" || status=$?

left=$(docker ps -aq --filter label=io.podlab.managed=true | wc -l)
if [ "$left" -gt 0 ]; then
  echo "warning: $left lab container(s) still exist after the tests:" >&2
  docker ps -a --filter label=io.podlab.managed=true --format '  {{.Names}} ({{.Status}})' >&2
fi
exit $status
