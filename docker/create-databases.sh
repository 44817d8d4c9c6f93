#!/usr/bin/env bash
# compose.yaml's init step: creates the four service databases when missing (the services would
# create their own too; doing it up front keeps a first start free of that race).
set -euo pipefail
for db in orders inventory coupons risk; do
  if [[ $(psql -v ON_ERROR_STOP=1 -tAc "select 1 from pg_database where datname = '$db'") != 1 ]]; then
    psql -v ON_ERROR_STOP=1 -qc "create database \"$db\""
    echo "created database $db"
  else
    echo "database $db exists"
  fi
done
