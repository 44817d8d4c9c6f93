#!/usr/bin/env bash
# Initialises PGDATA on first start the way the official image does, then runs the server as postgres.
set -euo pipefail

if [[ ${1:-} != postgres ]]; then
  exec "$@"
fi

if [[ $(id -u) == 0 ]]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
auth=${POSTGRES_HOST_AUTH_METHOD:-}
if [[ -z $auth ]]; then
  [[ -n ${POSTGRES_PASSWORD:-} ]] || {
    echo "Error: set POSTGRES_PASSWORD, or POSTGRES_HOST_AUTH_METHOD=trust to allow connections without one" >&2
    exit 1
  }
  auth=scram-sha-256
fi

if [[ ! -s $PGDATA/PG_VERSION ]]; then
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:-postgres}" >"$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host="$auth" -E UTF8 \
    --locale=C.UTF-8 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  printf "listen_addresses = '*'\n" >>"$PGDATA/postgresql.conf"
  printf 'host all all all %s\n' "$auth" >>"$PGDATA/pg_hba.conf"
  # First start on the socket only, for the init scripts.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [[ $db != postgres ]]; then
    psql -v ON_ERROR_STOP=1 --username "$user" --dbname postgres -c "create database \"$db\"" >/dev/null
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case $f in
      *.sh) echo "running $f"; bash "$f" ;;
      *.sql) echo "running $f"; psql -v ON_ERROR_STOP=1 --username "$user" --dbname "$db" -f "$f" ;;
      *) ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "PostgreSQL init process complete; ready for start up."
fi

exec "$@"
