#!/usr/bin/env bash
# Installs code-server (a real VS Code served over HTTP) for the end-to-end tests, once, into a
# cache directory outside the sources, and Debian's chromium when it is missing.
#
#   bash scripts/code-server.sh          # install if missing, print the code-server binary path
#
# Facts this works around (code-server 4.96.x from npm on Node 20):
#  - its postinstall refuses to run as root without --unsafe-perm, so we install with --ignore-scripts
#    and do the postinstall's work by hand;
#  - lib/vscode/npm-shrinkwrap.json points at a git dependency that cannot be fetched here, so it is
#    removed before installing lib/vscode's production dependencies;
#  - the native modules are rebuilt for this Node, and lib/vscode/node_modules.asar (which VS Code's
#    loader looks for) is linked to node_modules.
set -euo pipefail

VERSION="${CODE_SERVER_VERSION:-4.96.4}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${PODLAB_CACHE:-$ROOT/.cache}"
PREFIX="$CACHE/code-server-$VERSION"
PKG="$PREFIX/node_modules/code-server"
BIN="$PKG/out/node/entry.js"
STAMP="$PREFIX/.podlab-installed"

log() { echo "[code-server.sh] $*" >&2; }

install_chromium() {
  if [ -x /usr/bin/chromium ]; then return; fi
  log "installing chromium (apt-get)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
  else
    sudo apt-get update -qq >&2 && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
  fi
}

install_code_server() {
  if [ -f "$STAMP" ] && [ -f "$BIN" ]; then return; fi
  log "installing code-server $VERSION into $PREFIX (a few minutes, once)"
  mkdir -p "$PREFIX"
  cd "$PREFIX"
  [ -f package.json ] || echo '{"name":"podlab-code-server","private":true}' > package.json
  npm install --no-audit --no-fund --no-save --ignore-scripts --loglevel=error "code-server@$VERSION" >&2

  cd "$PKG/lib/vscode"
  rm -f npm-shrinkwrap.json
  log "installing lib/vscode production dependencies"
  npm install --omit=dev --ignore-scripts --no-audit --no-fund --no-save --loglevel=error >&2
  log "rebuilding native modules"
  npm rebuild --loglevel=error node-pty @vscode/spdlog @parcel/watcher native-watchdog @vscode/deviceid >&2
  ln -sfn node_modules node_modules.asar

  cd "$PREFIX"
  npm rebuild --loglevel=error argon2 >&2 || log "argon2 rebuild failed (only needed for password auth; the tests use --auth none)"
  touch "$STAMP"
  log "code-server ready"
}

install_chromium
install_code_server
echo "$BIN"
