/**
 * HTTP validators and freshness of the /v1 JSON answers (RFC 9110 8.8.3 and 13.1.2, RFC 9111).
 *
 * Every 200 carries a strong ETag, chosen so that a matching If-None-Match can often be
 * answered 304 before the answer is read or rendered:
 * - identity: an answer fixed once its resource exists (a tx by hash, a block at or below the
 *   indexed height): the tag is (document, app settings, path). Cached `immutable` for a year,
 *   so a CDN or browser keeps it across heights.
 * - height: an answer fixed per indexed height (routes registered `fixedPerHeight`): the tag is
 *   (document, app settings, indexed height as the HeightWatcher knows it, URL).
 * - checks: an answer fixed per indexed height and reconciler generation (routes registered
 *   `fixedPerHeightAndChecks`: node rows and the reconciler's check rows): the tag is the
 *   height tag's with the generation the watcher read with the height (repositories/status.ts).
 * - bytes: any other answer (the wall clock is in it: /v1/status): a digest of its bytes, known
 *   only once it is made.
 * Head answers (height, checks and bytes tags) stay fresh for one block interval: the median of the
 * latest block intervals the watcher read, whole seconds, rounded down (0 on a fast chain).
 *
 * The document's text is in every identity, height and checks tag, so a release that changes
 * openapi.yaml changes them; a release that changes answers' bytes changes the document's
 * version (and so its text).
 */
import { createHash } from 'crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { HeightWatcher } from './height-watcher';

/** How long an identity-tagged answer may be kept: a year (RFC 9111 5.2.2.1 advises no more). */
export const IMMUTABLE_MAX_AGE_S = 31_536_000;
export const IMMUTABLE_CACHE_CONTROL = `public, max-age=${IMMUTABLE_MAX_AGE_S}, immutable`;
/** Errors (400, 404, 405, 500) are not kept: a tx that is not found yet may be found at the next block. */
export const ERROR_CACHE_CONTROL = 'no-store';

// an entity-tag (RFC 9110 8.8.3): optional W/, then a quoted opaque-tag of etagc characters
const ENTITY_TAG_RE = /(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"/g;

/**
 * Whether an If-None-Match field value matches `etag`, the current representation's tag:
 * weak comparison (13.1.2: the opaque tags equal, W/ ignored on either side), `*` matches
 * any current representation. Unparsable members match nothing.
 */
export function ifNoneMatchHits(fieldValue: string | undefined, etag: string): boolean {
  if (fieldValue === undefined) return false;
  if (fieldValue.trim() === '*') return true;
  return namesTag(fieldValue, etag);
}

/**
 * Whether an If-None-Match field value names `etag` itself (`*` does not): before an answer
 * is made, only a tag the client was given with a 200 of this URL tells that one exists.
 */
export function namesTag(fieldValue: string | undefined, etag: string): boolean {
  if (fieldValue === undefined) return false;
  const opaque = etag.replace(/^W\//, '');
  for (const m of fieldValue.matchAll(ENTITY_TAG_RE)) if (`"${m[1]}"` === opaque) return true;
  return false;
}

function digest(text: string | Buffer, length: number): string {
  return createHash('sha1').update(text).digest('base64url').slice(0, length);
}

/** A strong tag of the bytes themselves. */
export function bytesTag(body: Buffer): string {
  return `"b.${digest(body, 27)}"`;
}

/** ETag and Cache-Control of an answer. */
export interface Validation {
  etag: string;
  cacheControl: string;
}

/** How a route's answers are tagged (see the head of this file). */
export type TagKind = 'identity' | 'height' | 'checks' | 'bytes';

/** What the watcher knew when an answer was started: its height and the reconciler's generation. */
export interface HeadPosition {
  height: number | undefined;
  generation: string | undefined;
}

/** A route whose answers are identity-tagged: its path parameters, and whether they name something that exists now. */
export interface IdentityRoute {
  /** the decoded path parameters when `path` is this route's; undefined otherwise */
  match(path: string): Record<string, string> | undefined;
  /** true when it is known without reading the store that the resource exists (false when that cannot be told) */
  exists(params: Record<string, string>): boolean;
}

/** 304: no body, the ETag and Cache-Control a 200 would carry (RFC 9110 15.4.5), and `more` (Cache-Status). */
export function sendNotModified(res: Response, validation: Validation, more: Record<string, string> = {}): void {
  res.writeHead(304, { ETag: validation.etag, 'Cache-Control': validation.cacheControl, ...more });
  res.end();
}

/** The tags and Cache-Control values of one app (its document and the settings that shape its answers). */
export class Validators {
  /** what every identity and height tag depends on besides the request: the document and the app's settings */
  private readonly fingerprint: string;
  private readonly identityRoutes: IdentityRoute[] = [];

  constructor(
    private readonly watcher: HeightWatcher,
    shapedBy: { document: string; hrp: string; gasDenom: string },
  ) {
    this.fingerprint = digest([shapedBy.document, shapedBy.hrp, shapedBy.gasDenom].join('\0'), 12);
  }

  /** The indexed height the watcher knows (undefined before its first poll or after a failed one). */
  get height(): number | undefined {
    return this.watcher.current;
  }

  /** The height and reconciler generation the watcher knows (read by one poll). */
  get position(): HeadPosition {
    return { height: this.watcher.current, generation: this.watcher.generation };
  }

  /** Starts the watcher's polls (after a request that reached the store). */
  start(): void {
    this.watcher.start();
  }

  /** Registers a route whose answers are identity-tagged (http/respond.ts, routes with `immutable`). */
  addIdentityRoute(route: IdentityRoute): void {
    this.identityRoutes.push(route);
  }

  /**
   * Middleware before the routes: a GET or HEAD whose If-None-Match matches a tag known without
   * making the answer is answered 304 here, before routing, parameter checks or the store:
   * - an identity-tagged path whose resource is known to exist (then `*` matches too);
   * - the height tag (or the checks tag) of this URL at the indexed height (and reconciler
   *   generation) the watcher knows. Only the tag itself matches (whether the URL has a 200
   *   answer is not known here); a client holds it only from a 200 of this URL at this height
   *   (and generation), since only answers fixed per height (and generation) carry one.
   */
  readonly notModified: RequestHandler = (req, res, next) => {
    const validation = this.beforeAnswer(req);
    if (validation) return sendNotModified(res, validation);
    next();
  };

  private beforeAnswer(req: Request): Validation | undefined {
    const field = req.headers['if-none-match'];
    if (field === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
    for (const route of this.identityRoutes) {
      const params = route.match(req.path);
      if (params === undefined) continue;
      if (!route.exists(params)) return undefined;
      const validation = { etag: this.identityTag(req.path), cacheControl: IMMUTABLE_CACHE_CONTROL };
      return ifNoneMatchHits(field, validation.etag) ? validation : undefined;
    }
    const { height, generation } = this.position;
    if (height === undefined) return undefined;
    const tags: string[] = [];
    if (field.includes(`"h${height}.`)) tags.push(this.heightTag(height, req.originalUrl));
    if (generation !== undefined && field.includes(`"c${height}.${generation}.`))
      tags.push(this.checksTag(height, generation, req.originalUrl));
    const etag = tags.find((tag) => namesTag(field, tag));
    return etag === undefined ? undefined : { etag, cacheControl: this.headCacheControl() };
  }

  /**
   * The validation of an answer made for `req`, `started` being the watcher's position when the
   * request started: a height tag only when the height did not move while the answer was made
   * (as the response cache keeps it), a checks tag only when neither the height nor the
   * generation moved, else a tag of the bytes.
   */
  ofAnswer(kind: TagKind, req: Request, started: HeadPosition, body: Buffer): Validation {
    if (kind === 'identity') return { etag: this.identityTag(req.path), cacheControl: IMMUTABLE_CACHE_CONTROL };
    const cacheControl = this.headCacheControl();
    const { height, generation } = started;
    const now = this.position;
    if (kind === 'height' && height !== undefined && now.height === height)
      return { etag: this.heightTag(height, req.originalUrl), cacheControl };
    const unmoved = height !== undefined && now.height === height && now.generation === generation;
    if (kind === 'checks' && unmoved && generation !== undefined)
      return { etag: this.checksTag(height, generation, req.originalUrl), cacheControl };
    return { etag: bytesTag(body), cacheControl };
  }

  identityTag(path: string): string {
    return `"i.${this.fingerprint}.${digest(path, 16)}"`;
  }

  heightTag(height: number, url: string): string {
    return `"h${height}.${this.fingerprint}.${digest(url, 16)}"`;
  }

  checksTag(height: number, generation: string, url: string): string {
    return `"c${height}.${generation}.${this.fingerprint}.${digest(url, 16)}"`;
  }

  /** Cache-Control of an answer at the head: fresh for one block interval. */
  headCacheControl(): string {
    const intervalMs = this.watcher.blockIntervalMs;
    const seconds = intervalMs === null || !(intervalMs > 0) ? 0 : Math.floor(intervalMs / 1000);
    return `public, max-age=${seconds}`;
  }
}
