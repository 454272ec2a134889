#!/usr/bin/env bash
# Entry point of the scale-out profile's `postgres-replica` (runs as user postgres, in the
# postgres:16 image or its offline stand-in): on an empty PGDATA, a pg_basebackup of
# PRIMARY_HOST streamed with its WAL into PGDATA (-X stream), holding replication slot
# REPLICATION_SLOT (created with the first backup, so the primary keeps the WAL the replica has
# not received), then standby.signal and primary_conninfo. Then the server runs as a hot
# standby of the primary. The password goes through PGPASSWORD, never the log.
set -Eeuo pipefail
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
: "${PRIMARY_HOST:?}" "${REPLICATION_USER:?}" "${REPLICATION_PASSWORD:?}" "${REPLICATION_SLOT:?}"

# a libpq connection-string value: single-quoted, \ and ' escaped
conninfo_quote() {
  local v="${1//\\/\\\\}"
  printf "'%s'" "${v//\'/\\\'}"
}
# a postgresql.conf string body: ' doubled
conf_quote() { printf '%s' "${1//\'/\'\'}"; }

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  export PGPASSWORD="$REPLICATION_PASSWORD"
  conn="host=$PRIMARY_HOST port=5432 user=$REPLICATION_USER"
  for _ in $(seq 1 60); do
    pg_isready -q -d "$conn dbname=postgres" && break
    sleep 2
  done
  slot_exists="$(psql -d "$conn dbname=postgres" -Atq -v slot="$REPLICATION_SLOT" \
    <<<"SELECT count(*) FROM pg_replication_slots WHERE slot_name = :'slot'")"
  create=()
  [ "$slot_exists" = 0 ] && create=(--create-slot)
  echo "replica: base backup of $PRIMARY_HOST (slot $REPLICATION_SLOT)"
  pg_basebackup -d "$conn" -D "$PGDATA" -X stream --slot="$REPLICATION_SLOT" "${create[@]}" --checkpoint=fast
  # standby settings written here rather than by -R: a newer pg_basebackup (the offline image's
  # 17) writes conninfo options (sslnegotiation) that a 16 server's walreceiver refuses
  touch "$PGDATA/standby.signal"
  {
    printf "primary_conninfo = '%s'\n" "$(conf_quote "host=$PRIMARY_HOST port=5432 user=$(conninfo_quote "$REPLICATION_USER") password=$(conninfo_quote "$REPLICATION_PASSWORD") application_name=$REPLICATION_SLOT")"
    printf "primary_slot_name = '%s'\n" "$REPLICATION_SLOT"
  } >>"$PGDATA/postgresql.auto.conf"
  chmod 700 "$PGDATA"
  unset PGPASSWORD
  echo "replica: base backup done"
fi
exec postgres -D "$PGDATA" -c hot_standby=on
