#!/usr/bin/env bash
# Makes sure a Docker daemon answers and `docker compose` (v2) works, installing from Debian packages
# where needed (used by .ci/run; run it as root on Debian bookworm):
#   docker.io and debootstrap from bookworm; the Compose v2 plugin from Debian trixie's docker-compose
#   package (bookworm only has Compose v1), fetched by its pinned checksum.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/debian-mirror.sh"
MIRROR=$(debian_mirror)
COMPOSE_DEB=pool/main/d/docker-compose/docker-compose_2.26.1-4_amd64.deb
COMPOSE_SHA256=47681197cb2b1ab88206b42a1a92fc75f50d9530a6322d03494a473eed0408ea

say() { printf 'docker: %s\n' "$*"; }
die() { printf 'docker: %s\n' "$*" >&2; exit 1; }

missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if ((${#missing[@]})); then
  [[ $(id -u) == 0 ]] || die "missing ${missing[*]}: install them as root (apt-get install ${missing[*]})"
  say "installing ${missing[*]} from Debian packages"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! docker compose version >/dev/null 2>&1; then
  [[ $(id -u) == 0 ]] || die "docker compose (v2) is missing"
  deb=$(mktemp --suffix=.deb)
  say "installing Compose v2 from $MIRROR/$COMPOSE_DEB"
  curl -fsS --retry 3 -o "$deb" "$MIRROR/$COMPOSE_DEB"
  echo "$COMPOSE_SHA256  $deb" | sha256sum -c --quiet - || die "checksum mismatch for $COMPOSE_DEB"
  dpkg -i "$deb" >/dev/null
  rm -f "$deb"
fi

if ! docker info >/dev/null 2>&1; then
  [[ $(id -u) == 0 ]] || die "the Docker daemon does not answer and only root can start it"
  say "starting dockerd (log: /var/log/dockerd.log)"
  nohup dockerd >/var/log/dockerd.log 2>&1 &
  for _ in $(seq 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  docker info >/dev/null 2>&1 || { tail -20 /var/log/dockerd.log >&2; die "dockerd did not start"; }
fi
say "$(docker version --format 'engine {{.Server.Version}}'), $(docker compose version --short | sed 's/^/compose /')"
