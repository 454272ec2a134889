# One image for what docker-compose.yml builds from this repository (compiled JavaScript, no
# TypeScript compiler at run time; user `node`):
#   rest-adapter   node launcher/rest-adapter-main.js /v1, /openapi.yaml         (port 3001)
#   app-services   node launcher/serve.js        /api, /health, /ready, /metrics (port 3002)
#   reconciler     node launcher/reconciler-main.js the chain-vs-store checks (no port)
#   graphql-json   node launcher/graphql-json.js JSON computed columns for GraphQL (one-shot)
#   project        node launcher/project.js /project
#                  copies the built SubQuery project (dist/, project.yaml, schema.graphql,
#                  proto/) into the volume the subql-node-cosmos image runs
#   devnet         node devnet/cli.js …          the chain stand-in (profile `devnet`)
# NODE_IMAGE picks the Node 20 base: the official node:20-bookworm-slim by default, or the
# offline stand-in docker/offline/build.sh makes (svc-offline/node:20).
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# docker/certs/*.crt: a site's TLS CAs for npm (docker/offline/build.sh copies them; none here is fine).
# No install scripts: the embedded PostgreSQL binaries and native rebuilds are not needed in containers.
COPY docker/certs/ /tmp/certs/
RUN cat /tmp/certs/*.crt >/tmp/site-ca.pem 2>/dev/null || true; \
    NODE_EXTRA_CA_CERTS=/tmp/site-ca.pem npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# subql codegen + subql build -> dist/index.js (the mappings the node loads); then the services'
# TypeScript compiled next to its sources (paths such as ../openapi.yaml stay as they are)
RUN npm run build && npx tsc -p docker/tsconfig.image.json && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production TZ=UTC
WORKDIR /app
COPY --from=build --chown=root:root /app /app
USER node
EXPOSE 3001 3002
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=12 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3001/v1/status').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "launcher/rest-adapter-main.js"]
