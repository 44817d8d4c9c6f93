#!/usr/bin/env bash
# Writes rabbitmq.conf from the official image's variables, then runs the broker as rabbitmq.
set -euo pipefail

if [[ $(id -u) == 0 ]]; then
  conf=/etc/rabbitmq/rabbitmq.conf
  {
    echo "loopback_users = none"
    echo "listeners.tcp.default = 5672"
    echo "management.tcp.port = 15672"
    echo "default_user = ${RABBITMQ_DEFAULT_USER:-guest}"
    echo "default_pass = ${RABBITMQ_DEFAULT_PASS:-guest}"
    echo "default_vhost = ${RABBITMQ_DEFAULT_VHOST:-/}"
  } >"$conf"
  chown -R rabbitmq:rabbitmq /etc/rabbitmq /var/lib/rabbitmq
  # The Erlang cookie must be private to its owner.
  [[ -f /var/lib/rabbitmq/.erlang.cookie ]] && chmod 600 /var/lib/rabbitmq/.erlang.cookie
  exec setpriv --reuid=rabbitmq --regid=rabbitmq --init-groups "$0" "$@"
fi

# Debian's /usr/sbin/rabbitmq-server wrapper sends the server's output to /var/log/rabbitmq/startup_log;
# the real script keeps it on stdout, where `docker logs` (and Testcontainers' wait strategy) read it.
if [[ ${1:-} == rabbitmq-server ]]; then
  shift
  set -- /usr/lib/rabbitmq/bin/rabbitmq-server "$@"
fi
exec "$@"
