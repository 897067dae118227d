#!/usr/bin/env bash
# Everything Pod Lab needs on a fresh Debian machine with Node 20, idempotent:
# npm dependencies, a running Docker engine, the offline images, and the bundles in dist/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm dependencies ..." >&2
  npm ci --no-audit --no-fund >&2
fi
bash scripts/ensure-docker.sh
bash scripts/build-images.sh
node scripts/build.mjs
