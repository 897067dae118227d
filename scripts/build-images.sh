#!/usr/bin/env bash
# Builds the images Pod Lab's examples and tests use, without any registry:
#   - the sandbox image: a static pause binary (gcc -static), tagged registry.k8s.io/pause:3.10
#     (the default sandbox image) and podlab.local/pause:offline;
#   - busybox from Debian's busybox-static, tagged busybox:1.35 (its real version) and
#     podlab.local/busybox:offline.
# Both are made with `docker import` from a tiny root filesystem. Idempotent: an image that is
# already present is left alone (pass --force to rebuild).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
force=0
[ "${1:-}" = "--force" ] && force=1

log() { echo "build-images: $*" >&2; }
have() { docker image inspect "$1" >/dev/null 2>&1; }

need_pkg() {
  # $1 = command or file to test, $2 = Debian package
  if [ ! -e "$1" ] && ! command -v "$1" >/dev/null 2>&1; then
    log "installing $2 ..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq "$2" >/dev/null
  fi
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ $force = 1 ] || ! have registry.k8s.io/pause:3.10 || ! have podlab.local/pause:offline; then
  need_pkg gcc gcc
  [ -e /usr/lib/x86_64-linux-gnu/libc.a ] || [ -e /usr/lib/aarch64-linux-gnu/libc.a ] || need_pkg /usr/include/stdio.h libc6-dev
  mkdir -p "$work/pause"
  gcc -Os -static -o "$work/pause/pause" "$here/images/pause.c"
  strip "$work/pause/pause" 2>/dev/null || true
  tar -C "$work/pause" -c pause | docker import \
    --change 'ENTRYPOINT ["/pause"]' \
    --change 'LABEL io.podlab.image=pause' \
    - podlab.local/pause:offline >/dev/null
  docker tag podlab.local/pause:offline registry.k8s.io/pause:3.10
  log "built registry.k8s.io/pause:3.10 (= podlab.local/pause:offline)"
fi

if [ $force = 1 ] || ! have busybox:1.35 || ! have podlab.local/busybox:offline; then
  need_pkg /bin/busybox busybox-static
  bb=$(command -v busybox)
  if ! file "$bb" 2>/dev/null | grep -q 'statically linked' && ! ldd "$bb" 2>&1 | grep -q 'not a dynamic'; then
    need_pkg /usr/share/doc/busybox-static busybox-static
    bb=/bin/busybox
  fi
  root="$work/busybox"
  mkdir -p "$root/bin" "$root/tmp" "$root/etc" "$root/root" "$root/var" "$root/proc" "$root/sys" "$root/dev"
  chmod 1777 "$root/tmp"
  cp "$bb" "$root/bin/busybox"
  for applet in $("$root/bin/busybox" --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$root/bin/$applet"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnobody:x:65534:\n' >"$root/etc/group"
  tar -C "$root" -c . | docker import \
    --change 'CMD ["sh"]' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'LABEL io.podlab.image=busybox' \
    - podlab.local/busybox:offline >/dev/null
  docker tag podlab.local/busybox:offline busybox:1.35
  log "built busybox:1.35 (= podlab.local/busybox:offline)"
fi
