#!/usr/bin/env bash
# Smoke test of compose.yaml (run by .ci/run): builds and starts the whole stack under its own project
# name on free host ports, waits until every service (and the payment simulator) is healthy, places one order of a
# priced sku through the published order-service port (refused without a token, accepted with a customer's), waits
# until it is CONFIRMED with its payment OK and the simulator's ledger holds exactly one succeeded charge of the
# order's amount for it, then removes the stack and its volumes.
# Needs the service jars (./mvnw -B package -DskipTests). Extra arguments go to `docker compose`,
# e.g. --env-file docker/offline/offline.env to use the locally built base images.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PROJECT=${SMOKE_PROJECT:-exactly-once-orders-smoke}
say() { printf 'compose-smoke: %s\n' "$*"; }
die() { printf 'compose-smoke: FAILED: %s\n' "$*" >&2; exit 1; }
json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
# Free host ports from below the kernel's ephemeral range: a port bind(0) offers is one any outgoing connection may
# take before docker publishes it ("address already in use"); below the range only a listener can hold one.
free_ports() {
  python3 - "$1" <<'PY'
import random, socket, sys
try:
    low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
except OSError:
    low = 32768
wanted, found = int(sys.argv[1]), []
candidates = list(range(20000, low)) or list(range(low, 65536))
random.shuffle(candidates)
for port in candidates:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            continue
    found.append(port)
    if len(found) == wanted:
        break
print(" ".join(map(str, found)))
PY
}

for module in order-service inventory-service coupon-service risk-service payment-service payment-simulator; do
  [[ -f $module/target/$module.jar ]] || die "$module/target/$module.jar is missing: run ./mvnw -B package -DskipTests first"
done

# Secrets of its own for this throw-away stack (compose.yaml has no defaults); the environment wins over any .env.
secret() { head -c 24 /dev/urandom | base64 | tr -d '/+='; }
export POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-$(secret)}
export RABBITMQ_USER=${RABBITMQ_USER:-smoke-admin}
export RABBITMQ_PASSWORD=${RABBITMQ_PASSWORD:-$(secret)}
# Each service's own broker user, which the topology job creates.
for service in ORDER INVENTORY COUPON RISK PAYMENT; do
  var=RABBITMQ_PASSWORD_${service}_SERVICE
  export "$var=${!var:-$(secret)}"
done
for db in ORDERS INVENTORY COUPONS RISK PAYMENTS PAYMENT_SIMULATOR; do
  for role in OWNER APP; do
    var=${db}_${role}_PASSWORD
    export "$var=${!var:-$(secret)}"
  done
done
# The payment simulator's API key, which payment-service sends.
export SIMULATOR_API_KEY=${SIMULATOR_API_KEY:-$(secret)}
# A token issuer of its own too: a key pair in a temporary directory, removed with the stack.
issuer=$(mktemp -d)
docker/dev-issuer.sh keys "$issuer"
export JWT_PUBLIC_KEY_FILE=$issuer/public.pem
admin="Authorization: Bearer $(docker/dev-issuer.sh token "$issuer" --admin)"
customer="Authorization: Bearer $(docker/dev-issuer.sh token "$issuer" --user 4242)"
read -r port_1 port_2 port_3 <<<"$(free_ports 3)"
export ORDER_SERVICE_HOST_PORT=${ORDER_SERVICE_HOST_PORT:-$port_1}
export POSTGRES_HOST_PORT=${POSTGRES_HOST_PORT:-$port_2}
export RABBITMQ_MANAGEMENT_HOST_PORT=${RABBITMQ_MANAGEMENT_HOST_PORT:-$port_3}
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
compose "${args[@]}" up --build --detach --wait --wait-timeout 420 --quiet-pull
say "all services healthy after $(($(date +%s) - started)) s"
compose "${args[@]}" ps --format 'table {{.Service}}\t{{.Status}}'

limit=$(compose "${args[@]}" exec -T rabbitmq rabbitmqctl -q eval 'application:get_env(rabbit, max_message_size).')
[[ $limit == '{ok,1048576}' ]] || die "the broker's max_message_size is $limit, not the 1 MiB of docker/rabbitmq/20-limits.conf"
say "broker max_message_size: 1 MiB"
for entry in order-service:orders payment-service:payments payment-simulator:payment_simulator; do
  db=${entry#*:}
  roles=$(compose "${args[@]}" exec -T postgres psql -U postgres -tAc \
    "select string_agg(distinct usename, ',' order by usename) from pg_stat_activity where datname = '$db'")
  [[ $roles == "${db}_app" ]] || die "${entry%%:*} should be connected to its database as ${db}_app only, not as: $roles"
  say "${entry%%:*} connects as its runtime role (${db}_app)"
done
users=$(compose "${args[@]}" exec -T rabbitmq rabbitmqctl -q list_connections --no-table-headers user | sort -u | paste -sd, -)
[[ $users == coupon-service,inventory-service,order-service,payment-service,risk-service ]] \
  || die "each service should be connected to the broker as its own user only, not as: $users"
say "each service connects to the broker as its own user ($users)"

inventory="http://$(compose "${args[@]}" port inventory-service 8082)"
simulator="http://$(compose "${args[@]}" port payment-simulator 8090)"
orders="http://localhost:$ORDER_SERVICE_HOST_PORT"
sku=$((900000 + RANDOM))
price=1250
# A priced sku: the order has an amount, so it is CONFIRMED only once payment-service has charged it at the simulator.
curl -fsS -X PUT -H "$admin" -H 'Content-Type: application/json' -d "{\"available\": 5, \"price_cents\": $price}" \
  "$inventory/stock/$sku" >/dev/null || die "could not seed stock through $inventory"

# The image serves the API description published in docs/openapi/, without a token.
cmp -s <(curl -fsS "$orders/v3/api-docs") docs/openapi/order-service.json \
  || die "order-service's image does not serve docs/openapi/order-service.json at /v3/api-docs"
say "order-service serves its published API description"

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
  [[ $status == CONFIRMED || $status == REJECTED || $status == CANCELLED ]] && break
  sleep 0.5
done
order=$(curl -fsS -H "$customer" "$orders/orders/$order_id")
[[ $status == CONFIRMED ]] || die "order $order_id ended $status, expected CONFIRMED: $order"
payment=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["steps"]["payment"])' <<<"$order")
amount=$(json_field amount_cents <<<"$order")
[[ $payment == OK ]] || die "order $order_id is CONFIRMED with steps.payment $payment, expected OK: $order"
[[ $amount == "$price" ]] || die "order $order_id costs $amount cents, expected $price: $order"
say "order $order_id CONFIRMED, paid $amount cents: $(curl -fsS -H "$admin" "$inventory/stock/$sku")"
# The provider's side: exactly one charge for the order (reference order-<id>), succeeded, of the order's amount.
ledger=$(curl -fsS "$simulator/ledger") || die "could not read the simulator's ledger at $simulator/ledger"
charge=$(python3 -c '
import json, sys
charges = [c for c in json.load(sys.stdin)["charges"] if c["reference"] == sys.argv[1]]
ok = len(charges) == 1 and charges[0]["status"] == "succeeded" and charges[0]["amount_cents"] == int(sys.argv[2])
print(("OK " if ok else "WRONG ") + json.dumps(charges))
' "order-$order_id" "$amount" <<<"$ledger")
[[ $charge == OK* ]] || die "the simulator's ledger should hold one succeeded charge of $amount cents for order-$order_id: ${charge#* }"
say "the simulator's ledger: ${charge#OK }"
say "PASSED in $(($(date +%s) - started)) s"
