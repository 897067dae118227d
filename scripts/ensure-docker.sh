#!/usr/bin/env bash
# Makes sure a Docker engine answers on this machine. When none does, installs Debian's
# docker.io (as root) and starts dockerd in the background, then waits for its socket.
# Idempotent; prints what it does on stderr. Exit 0 only when `docker info` answers.
set -euo pipefail

log() { echo "ensure-docker: $*" >&2; }

if docker info >/dev/null 2>&1; then
  exit 0
fi

if [ -n "${DOCKER_HOST:-}" ] && [ "${DOCKER_HOST#unix://}" = "$DOCKER_HOST" ]; then
  log "DOCKER_HOST=$DOCKER_HOST does not answer; not starting a local daemon for a remote host."
  exit 1
fi

if [ "$(id -u)" != 0 ]; then
  log "Docker is not running and this script is not root: start Docker (e.g. 'sudo systemctl start docker') and add yourself to the docker group."
  exit 1
fi

if ! command -v dockerd >/dev/null 2>&1; then
  log "installing Debian's docker.io ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq docker.io >/dev/null
fi

if ! pgrep -x dockerd >/dev/null 2>&1; then
  log "starting dockerd in the background (log: /var/log/podlab-dockerd.log) ..."
  # No systemd in containers: start it by hand. iptables may be unavailable in a sandbox;
  # fall back to a daemon without it (port publishing then uses docker-proxy).
  nohup dockerd >/var/log/podlab-dockerd.log 2>&1 &
fi

for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    log "Docker is up."
    exit 0
  fi
  sleep 0.5
done

if pgrep -x dockerd >/dev/null 2>&1 && grep -qi iptables /var/log/podlab-dockerd.log; then
  log "dockerd failed with iptables; retrying with --iptables=false"
  pkill -x dockerd || true
  sleep 1
  nohup dockerd --iptables=false >/var/log/podlab-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && { log "Docker is up (without iptables)."; exit 0; }
    sleep 0.5
  done
fi

log "Docker did not come up; see /var/log/podlab-dockerd.log:"
tail -n 20 /var/log/podlab-dockerd.log >&2 || true
exit 1
