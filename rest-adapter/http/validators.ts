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
 * - bytes: any other answer (the wall clock or the reconciler's rows are in it): a digest of
 *   its bytes, known only once it is made.
 * Head answers (height and bytes tags) stay fresh for one block interval: the median of the
 * latest block intervals the watcher read, whole seconds, rounded down (0 on a fast chain).
 *
 * The document's text is in every identity and height tag, so a release that changes
 * openapi.yaml changes them; a release that changes answers' bytes changes the document's
 * version (and so its text).
 */
import { createHash } from 'crypto';
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

/** The tags and Cache-Control values of one app (its document and the settings that shape its answers). */
export class Validators {
  /** what every identity and height tag depends on besides the request: the document and the app's settings */
  private readonly fingerprint: string;

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

  /** Starts the watcher's polls (after a request that reached the store). */
  start(): void {
    this.watcher.start();
  }

  identityTag(path: string): string {
    return `"i.${this.fingerprint}.${digest(path, 16)}"`;
  }

  heightTag(height: number, url: string): string {
    return `"h${height}.${this.fingerprint}.${digest(url, 16)}"`;
  }

  /** Cache-Control of an answer at the head: fresh for one block interval. */
  headCacheControl(): string {
    const intervalMs = this.watcher.blockIntervalMs;
    const seconds = intervalMs === null || !(intervalMs > 0) ? 0 : Math.floor(intervalMs / 1000);
    return `public, max-age=${seconds}`;
  }
}
