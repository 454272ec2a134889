#!/usr/bin/env bash
# /docker-entrypoint-initdb.d (first start only): let the scale-out profile's streaming replica
# (docker/postgres/replica.sh) connect for replication with a password. Only roles with the
# REPLICATION attribute (the superuser POSTGRES_USER here) can use these connections.
echo 'host replication all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
