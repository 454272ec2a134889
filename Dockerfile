# syntax=docker/dockerfile:1
# One image for what docker-compose.yml builds from this repository:
#   rest-adapter   ts-node rest-adapter/server.ts   /v1, /openapi.yaml          (port 3001)
#   app-services   ts-node launcher/serve.ts        /api, /health, /ready, /metrics (port 3002)
#   reconciler     ts-node reconciler/main.ts       the chain-vs-store checks (no port)
#   graphql-json   ts-node launcher/graphql-json.ts JSON computed columns for GraphQL (one-shot)
#   project        ts-node launcher/project.ts /project
#                  copies the built SubQuery project (dist/, project.yaml, schema.graphql,
#                  proto/) into the volume the official subql-node-cosmos image runs
# The TypeScript services run through ts-node --transpile-only, as `npm start` does.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# no install scripts: the embedded PostgreSQL binaries and native rebuilds are not needed in containers
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# subql codegen + subql build -> dist/index.js (the mappings the node loads)
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production TZ=UTC
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 3001 3002
CMD ["node_modules/.bin/ts-node", "--transpile-only", "rest-adapter/server.ts"]
