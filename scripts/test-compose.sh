#!/usr/bin/env bash
# npm run test:compose — the production stack (docker-compose.yml) really running under Docker
# on this machine, proved over HTTP by tests/compose/run.ts. Not part of `npm test`: it needs a
# container engine and minutes of image builds.
#
#   1. installs what is missing (Debian's docker.io, docker-compose, debootstrap) and starts
#      dockerd when none answers (stopped again at the end);
#   2. builds the registry-free images (docker/offline/build.sh) and this repository's image on
#      the offline Node base;
#   3. runs the devnet and scale profiles under a project of its own (COMPOSE_PROJECT_NAME),
#      ports published on 127.0.0.1 only, and tests/compose/run.ts checks them;
#   4. on exit, whatever happened: `down -v` removes every container, network and volume the
#      project made (the images stay, as the build cache of the next run).
# Must run as root (apt-get, dockerd, debootstrap). Figures: COMPOSE_FIGURES (JSON file).
set -Eeuo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

log() { printf '[test:compose] %s\n' "$*" >&2; }

if [ "$(id -u)" != 0 ]; then
  log "run as root: it installs Debian packages and may start dockerd"
  exit 1
fi

install_missing() {
  local missing=() pair
  for pair in dockerd:docker.io docker-compose:docker-compose debootstrap:debootstrap; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

STARTED_DOCKERD=""
start_dockerd_if_needed() {
  docker info >/dev/null 2>&1 && return 0
  log "starting dockerd (log: /var/log/svc-compose-test-dockerd.log)"
  dockerd >/var/log/svc-compose-test-dockerd.log 2>&1 &
  STARTED_DOCKERD=$!
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && return 0
    sleep 1
  done
  log "dockerd did not answer within 60 s"
  exit 1
}

install_missing
start_dockerd_if_needed

export COMPOSE_PROJECT_NAME="${COMPOSE_PROJECT_NAME:-svc-compose-test}"
# tests/compose/webhooks.yml: the webhook drill's API key and receiver, for this run only
export COMPOSE_TEST_CONFIG="$ROOT/.scratch/compose-config"
COMPOSE=(docker-compose -f docker-compose.yml -f tests/compose/webhooks.yml --env-file docker/devnet.env
  --profile devnet --profile scale)

cleanup() {
  local rc=$?
  log "cleaning up project $COMPOSE_PROJECT_NAME (containers, networks, volumes)"
  "${COMPOSE[@]}" down -v --remove-orphans --timeout 10 >/dev/null 2>&1 || true
  if [ -n "$STARTED_DOCKERD" ]; then
    kill "$STARTED_DOCKERD" 2>/dev/null || true
    wait "$STARTED_DOCKERD" 2>/dev/null || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$(date +%s)
log "building the offline images"
set -a
# shellcheck disable=SC1090
source <(docker/offline/build.sh)
set +a
log "building this repository's image on $NODE_IMAGE"
export APP_IMAGE=svc-indexer:compose-test
nice -n 10 docker build -q --build-arg "NODE_IMAGE=$NODE_IMAGE" -t "$APP_IMAGE" . >/dev/null
export BUILD_SECONDS=$(($(date +%s) - started))
log "images built in ${BUILD_SECONDS}s"

# loopback only; a fresh password per run; the devnet's own keys for the lender and the desk
export PUBLISH_ADDRESS=127.0.0.1
export GRAPHQL_PORT="${GRAPHQL_PORT:-39300}" REST_PORT="${REST_PORT:-39301}" APP_PORT="${APP_PORT:-39302}"
export DEVNET_PORT="${DEVNET_PORT:-39657}" BALANCER_PORT="${BALANCER_PORT:-39380}" REFERENCE_PORT="${REFERENCE_PORT:-39400}"
DB_PASS="$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export DB_PASS
# a fresh API key per run for the webhook drill; the services are given its SHA-256 only
WEBHOOK_TEST_KEY="$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export WEBHOOK_TEST_KEY
mkdir -p "$COMPOSE_TEST_CONFIG"
printf '[{"name":"compose-test","sha256":"%s","per_second":100,"burst":200}]\n' \
  "$(printf %s "$WEBHOOK_TEST_KEY" | sha256sum | cut -d' ' -f1)" >"$COMPOSE_TEST_CONFIG/api-keys.json"
chmod 755 "$COMPOSE_TEST_CONFIG"
chmod 644 "$COMPOSE_TEST_CONFIG/api-keys.json"
set -a
# shellcheck disable=SC1090
source <(npx ts-node --transpile-only scripts/devnet-keys.ts)
set +a
"${COMPOSE[@]}" down -v --remove-orphans --timeout 10 >/dev/null 2>&1 || true

export COMPOSE_COMMAND="${COMPOSE[*]}"
export COMPOSE_FIGURES="${COMPOSE_FIGURES:-$ROOT/.scratch/compose-figures.json}"
mkdir -p "$(dirname "$COMPOSE_FIGURES")"
npx ts-node --transpile-only tests/compose/run.ts
