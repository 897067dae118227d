#!/usr/bin/env bash
# The README's first command: set up, then run an example pod end to end with `podlab run`.
# Usage: bash scripts/demo.sh [EXAMPLE.yaml] [podlab run flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
file=${1:-examples/init-containers.yaml}
shift || true
exec node dist/cli.js run "$file" --rm --logs "$@"
