#!/usr/bin/env bash
# Smoke test of compose.yaml (run by .ci/run): builds and starts the whole stack under its own project
# name on free host ports, waits until every service is healthy, places one order through the
# published order-service port (refused without a token, accepted with a customer's), waits until it is CONFIRMED,
# then removes the stack and its volumes.
# Needs the service jars (./mvnw -B package -DskipTests). Extra arguments go to `docker compose`,
# e.g. --env-file docker/offline/offline.env to use the locally built base images.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PROJECT=${SMOKE_PROJECT:-exactly-once-orders-smoke}
say() { printf 'compose-smoke: %s\n' "$*"; }
die() { printf 'compose-smoke: FAILED: %s\n' "$*" >&2; exit 1; }
json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

for module in order-service inventory-service coupon-service risk-service; do
  [[ -f $module/target/$module.jar ]] || die "$module/target/$module.jar is missing: run ./mvnw -B package -DskipTests first"
done

# Secrets of its own for this throw-away stack (compose.yaml has no defaults); the environment wins over any .env.
secret() { head -c 24 /dev/urandom | base64 | tr -d '/+='; }
export POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-$(secret)}
export RABBITMQ_USER=${RABBITMQ_USER:-smoke-admin}
export RABBITMQ_PASSWORD=${RABBITMQ_PASSWORD:-$(secret)}
# Each service's own broker user, which the topology job creates.
for service in ORDER INVENTORY COUPON RISK; do
  var=RABBITMQ_PASSWORD_${service}_SERVICE
  export "$var=${!var:-$(secret)}"
done
for db in ORDERS INVENTORY COUPONS RISK; do
  for role in OWNER APP; do
    var=${db}_${role}_PASSWORD
    export "$var=${!var:-$(secret)}"
  done
done
# A token issuer of its own too: a key pair in a temporary directory, removed with the stack.
issuer=$(mktemp -d)
docker/dev-issuer.sh keys "$issuer"
export JWT_PUBLIC_KEY_FILE=$issuer/public.pem
admin="Authorization: Bearer $(docker/dev-issuer.sh token "$issuer" --admin)"
customer="Authorization: Bearer $(docker/dev-issuer.sh token "$issuer" --user 4242)"
export ORDER_SERVICE_HOST_PORT=${ORDER_SERVICE_HOST_PORT:-$(free_port)}
export POSTGRES_HOST_PORT=${POSTGRES_HOST_PORT:-$(free_port)}
export RABBITMQ_MANAGEMENT_HOST_PORT=${RABBITMQ_MANAGEMENT_HOST_PORT:-$(free_port)}
compose() { docker compose -p "$PROJECT" "$@"; }
args=("$@")

cleanup() {
  local status=$?
  if ((status != 0)); then
    compose "${args[@]}" ps -a || true
    compose "${args[@]}" logs --no-color --tail 80 || true
  fi
  say "removing the stack"
  compose "${args[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$issuer"
}
trap cleanup EXIT

started=$(date +%s)
say "building and starting the stack (project $PROJECT, order-service on localhost:$ORDER_SERVICE_HOST_PORT)"
compose "${args[@]}" up --build --detach --wait --wait-timeout 300 --quiet-pull
say "all services healthy after $(($(date +%s) - started)) s"
compose "${args[@]}" ps --format 'table {{.Service}}\t{{.Status}}'

limit=$(compose "${args[@]}" exec -T rabbitmq rabbitmqctl -q eval 'application:get_env(rabbit, max_message_size).')
[[ $limit == '{ok,1048576}' ]] || die "the broker's max_message_size is $limit, not the 1 MiB of docker/rabbitmq/20-limits.conf"
say "broker max_message_size: 1 MiB"
roles=$(compose "${args[@]}" exec -T postgres psql -U postgres -tAc \
  "select string_agg(distinct usename, ',' order by usename) from pg_stat_activity where datname = 'orders'")
[[ $roles == orders_app ]] || die "order-service should be connected to its database as orders_app only, not as: $roles"
say "order-service connects as its runtime role (orders_app)"
users=$(compose "${args[@]}" exec -T rabbitmq rabbitmqctl -q list_connections --no-table-headers user | sort -u | paste -sd, -)
[[ $users == coupon-service,inventory-service,order-service,risk-service ]] \
  || die "each service should be connected to the broker as its own user only, not as: $users"
say "each service connects to the broker as its own user ($users)"

inventory="http://$(compose "${args[@]}" port inventory-service 8082)"
orders="http://localhost:$ORDER_SERVICE_HOST_PORT"
sku=$((900000 + RANDOM))
curl -fsS -X PUT -H "$admin" -H 'Content-Type: application/json' -d '{"available": 5}' "$inventory/stock/$sku" \
  >/dev/null || die "could not seed stock through $inventory"

key=$(cat /proc/sys/kernel/random/uuid)
body="{\"user_id\": 4242, \"sku_ids\": [$sku], \"idempotency_key\": \"$key\"}"
unauthenticated=$(curl -sS -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d "$body" "$orders/orders")
[[ $unauthenticated == 401 ]] || die "POST /orders without a token answered $unauthenticated, expected 401"
response=$(curl -sS -w '\n%{http_code}' -H "$customer" -H 'Content-Type: application/json' -d "$body" "$orders/orders")
code=${response##*$'\n'}
[[ $code == 201 ]] || die "POST /orders answered $code: ${response%$'\n'*}"
order_id=$(json_field order_id <<<"${response%$'\n'*}")
say "order $order_id created (201)"

status=""
for _ in $(seq 120); do
  status=$(curl -fsS -H "$customer" "$orders/orders/$order_id" | json_field status)
  [[ $status == CONFIRMED || $status == REJECTED ]] && break
  sleep 0.5
done
[[ $status == CONFIRMED ]] || die "order $order_id ended $status, expected CONFIRMED: $(curl -sS -H "$customer" "$orders/orders/$order_id")"
say "order $order_id CONFIRMED: $(curl -fsS -H "$admin" "$inventory/stock/$sku")"
say "PASSED in $(($(date +%s) - started)) s"
