/**
 * The explorer page (explorer/, docs/explorer.md) on the one HTTP server: `GET /` answers its
 * index.html and `/explorer/<file>` its bundle (content-hashed names, cached for good). Nothing
 * else: every other path goes on to the routes behind it (unknown ones stay JSON 404s). The
 * bundle is built by `npm run build` (scripts/build-explorer.js); `ensureExplorerBuilt` builds it
 * at start when it is missing or older than its sources and esbuild is installed.
 */
import express, { type RequestHandler } from 'express';
import fs from 'fs';
import path from 'path';
import type { Logger } from './logger';
import { REPO_ROOT } from './project';

export const EXPLORER_DIST = path.join(REPO_ROOT, 'explorer', 'dist');

interface ExplorerBuild {
  buildExplorer(): Promise<{ gz: number }>;
  explorerIsStale(): boolean;
}

/** Builds the bundle when stale; false when it was up to date or cannot be built here (a pruned image keeps its built copy). */
export async function ensureExplorerBuilt(log: Logger): Promise<boolean> {
  const script = path.join(REPO_ROOT, 'scripts', 'build-explorer.js');
  if (!fs.existsSync(script) || !fs.existsSync(path.join(REPO_ROOT, 'explorer', 'src'))) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS build script, loaded only when needed
  const build = require(script) as ExplorerBuild;
  if (!build.explorerIsStale()) return false;
  try {
    require.resolve('esbuild');
  } catch {
    log.warn('the explorer bundle is stale or missing and esbuild is not installed: run npm install && npm run build');
    return false;
  }
  const started = Date.now();
  const { gz } = await build.buildExplorer();
  log.info('explorer bundle built', { ms: Date.now() - started, gzipped_bytes: gz });
  return true;
}

const CSP =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

/** GET / and /explorer/*; reads the built files per request, so a rebuild is served without a restart. */
export function explorerHandler(dist = EXPLORER_DIST): RequestHandler {
  const router = express.Router({ strict: true, caseSensitive: true });
  const assets = express.static(dist, {
    index: false,
    immutable: true,
    maxAge: '365d',
    fallthrough: true,
    redirect: false,
  });
  router.get('/', (_req, res, next) => {
    const index = path.join(dist, 'index.html');
    fs.readFile(index, (err, html) => {
      if (err) return next(); // not built: / stays what it was (a JSON 404)
      res.setHeader('Content-Security-Policy', CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'no-cache');
      res.status(200).type('text/html; charset=utf-8').send(html);
    });
  });
  router.use('/explorer', (req, res, next) => {
    if (req.path === '/index.html' || !/^\/[A-Za-z0-9._-]+$/.test(req.path)) return next();
    res.setHeader('X-Content-Type-Options', 'nosniff');
    assets(req, res, next);
  });
  return router;
}
