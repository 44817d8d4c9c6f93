#!/usr/bin/env bash
# Builds local stand-ins for every base image compose.yaml and the container tests use, from Debian
# packages only (debootstrap + docker import + thin Dockerfiles), for machines that reach no
# container registry. Prints (and writes to docker/offline/offline.env) the variables that select them:
#   docker compose --env-file docker/offline/offline.env up --build
# Idempotent: an image that exists is kept (OFFLINE_REBUILD=1 rebuilds all).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../debian-mirror.sh"
MIRROR=$(debian_mirror)
SUITE=${DEBIAN_SUITE:-bookworm}
PREFIX=${OFFLINE_IMAGE_PREFIX:-exactly-once-orders/offline}
BASE="$PREFIX-debian:$SUITE"
JRE="$PREFIX-jre:17"
POSTGRES="$PREFIX-postgres:15"
RABBITMQ="$PREFIX-rabbitmq:3-management"

say() { printf 'offline-images: %s\n' "$*"; }
die() { printf 'offline-images: %s\n' "$*" >&2; exit 1; }
exists() { [[ ${OFFLINE_REBUILD:-0} != 1 ]] && docker image inspect "$1" >/dev/null 2>&1; }

command -v docker >/dev/null || die "docker is not installed"
docker info >/dev/null 2>&1 || die "the Docker daemon does not answer"

if exists "$BASE"; then
  say "$BASE exists"
else
  command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
  [[ $(id -u) == 0 ]] || die "debootstrap needs root"
  rootfs=$(mktemp -d /tmp/offline-rootfs.XXXXXX)
  trap 'rm -rf "$rootfs"' EXIT
  say "debootstrap $SUITE (minbase) from $MIRROR into $rootfs ..."
  debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$rootfs" "$MIRROR" >"$rootfs.log" 2>&1 \
    || { tail -20 "$rootfs.log" >&2; die "debootstrap failed (log: $rootfs.log)"; }
  # Smaller image: no package lists or caches; apt-get update in the thin images fetches the lists again.
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
  say "importing $BASE"
  tar -C "$rootfs" -c . | docker import --change 'CMD ["/bin/bash"]' - "$BASE" >/dev/null
  rm -rf "$rootfs" "$rootfs.log"
  trap - EXIT
fi

build() { # image directory
  if exists "$1"; then
    say "$1 exists"
    return
  fi
  say "building $1"
  # Host networking: the build reaches the Debian mirror the way this machine does.
  local log
  log=$(mktemp /tmp/offline-build.XXXXXX.log)
  DOCKER_BUILDKIT=0 docker build --network host --build-arg BASE_IMAGE="$BASE" -t "$1" "$HERE/$2" >"$log" 2>&1 \
    || { tail -30 "$log" >&2; die "building $1 failed (log: $log)"; }
  rm -f "$log"
}

build "$JRE" jre
build "$POSTGRES" postgres
build "$RABBITMQ" rabbitmq

cat >"$HERE/offline.env" <<ENV
# Written by docker/offline/build-images.sh: the locally built stand-ins for the registry images.
JRE_IMAGE=$JRE
POSTGRES_IMAGE=$POSTGRES
RABBITMQ_IMAGE=$RABBITMQ
# Testcontainers would pull images of its own (the Ryuk reaper; alpine for start-up checks and, where
# /.dockerenv exists, to find the host's address): not offline. The daemon here is local.
TESTCONTAINERS_RYUK_DISABLED=true
TESTCONTAINERS_CHECKS_DISABLE=true
TESTCONTAINERS_HOST_OVERRIDE=localhost
ENV
say "done; select them with: docker compose --env-file docker/offline/offline.env up --build"
cat "$HERE/offline.env" | grep -v '^#'
