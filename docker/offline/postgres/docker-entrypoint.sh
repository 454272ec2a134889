#!/usr/bin/env bash
# The offline postgres:16 stand-in's entry point: the official image's contract, kept small.
# First start on an empty PGDATA: initdb with POSTGRES_USER (default postgres) and
# POSTGRES_PASSWORD (required), create POSTGRES_DB (default the user), run
# /docker-entrypoint-initdb.d/*.sql and *.sh against it on a server that listens on the socket
# only, then start the real server. The password goes to initdb through a file that is removed,
# never through the command line or the log.
set -Eeuo pipefail

init_cluster() {
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
  local user="${POSTGRES_USER:-postgres}"
  local db="${POSTGRES_DB:-$user}"
  local pwfile
  pwfile="$(mktemp)"
  printf '%s' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" --username="$user" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  {
    echo "listen_addresses = '*'"
    echo "unix_socket_directories = '/var/run/postgresql'"
  } >>"$PGDATA/postgresql.conf"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"

  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  export PGUSER="$user" PGHOST=/var/run/postgresql
  if [ "$db" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --dbname postgres -q --set db="$db" <<<'CREATE DATABASE :"db";'
  fi
  local f
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sql) echo "initdb.d: $f"; psql -v ON_ERROR_STOP=1 --dbname "$db" -q -f "$f" ;;
      *.sh) echo "initdb.d: $f"; POSTGRES_DB="$db" . "$f" ;;
      *) ;;
    esac
  done
  unset PGUSER PGHOST
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "PostgreSQL init process complete; ready for start up."
}

if [ "${1:0:1}" = '-' ]; then
  set -- postgres "$@"
fi
if [ "$1" = postgres ]; then
  if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown -R postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    init_cluster
  fi
fi
exec "$@"
