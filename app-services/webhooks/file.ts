/**
 * An operator's subscriptions (WEBHOOKS_FILE): a JSON array read at start, each entry upserted by
 * its name, its secret the file's. The file itself must be readable JSON holding an array (else the
 * start is refused with one line naming the variable, as for API_KEYS_FILE); an entry that is wrong
 * is refused with one line saying which and why (never quoting its secret) and the others apply.
 *
 *   [{"name": "deposits", "url": "https://hooks.example.com/svc", "secret": "whsec_<base64 of 24-64 bytes>",
 *     "account": "svc1...", "blocks": false, "after": "<event id>", "owner": "<an API_KEYS_FILE key name>"}]
 *
 * An entry's subscription has the id `wh_` + 24 hex of the SHA-256 of its name, its source is
 * `file`. On a later start the same name updates its URL, filter, blocks, owner and secret and keeps
 * its cursor and state (a paused one stays paused); `after` counts only when it is created. An
 * entry taken out of the file leaves its subscription as it is (delete it with the API as its owner).
 */
import crypto from 'crypto';
import fs from 'fs';
import { ConfigError, isSvcError } from '../../src/lib/errors';
import type { PartLogger } from '../../src/lib/logger';
import type { WebhookCursor, WebhookFeed, WebhookFilter } from './feed';
import type { WebhookRepository } from './repository';
import type { SecretBox } from './secrets';
import { checkTarget, parseTarget, TargetRefused } from './target';

export const WEBHOOKS_FILE_VARIABLE = 'WEBHOOKS_FILE';
/** The owner of a file's subscription that names none: no API key sees it. */
export const OPERATOR_OWNER = 'operator';

export interface WebhooksFile {
  path: string;
  entries: unknown[];
}

/** The file's entries; a ConfigError when it cannot be read or is not a JSON array. */
export function readWebhooksFile(path: string): WebhooksFile {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(WEBHOOKS_FILE_VARIABLE, `cannot be read: ${(e as Error).message}`);
  }
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(WEBHOOKS_FILE_VARIABLE, `is not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(entries)) throw new ConfigError(WEBHOOKS_FILE_VARIABLE, 'must hold a JSON array of subscriptions');
  return { path, entries };
}

const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const FIELDS = new Set(['name', 'url', 'secret', 'account', 'asset', 'method', 'blocks', 'after', 'owner']);

/** The id of the file's subscription `name`: stable across starts, of the API's id form. */
export function declaredId(name: string): string {
  return `wh_${crypto.createHash('sha256').update(`webhooks-file/${name}`, 'utf8').digest('hex').slice(0, 24)}`;
}

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 bytes. */
function secretProblem(secret: unknown): string | undefined {
  if (typeof secret !== 'string' || !secret.startsWith('whsec_'))
    return '"secret" must be a Standard Webhooks secret: whsec_ and the base64 of 24 to 64 random bytes';
  const b64 = secret.slice('whsec_'.length);
  const bytes = Buffer.from(b64, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || bytes.length < 24 || bytes.length > 64)
    return '"secret" must be whsec_ and the base64 of 24 to 64 random bytes';
  return undefined;
}

class Refused extends Error {}

export interface ApplyDeps {
  repository: WebhookRepository;
  feed: WebhookFeed;
  box: SecretBox;
  allowPrivate: boolean;
  /** the API_KEYS_FILE key names an entry's `owner` may name */
  keyNames: readonly string[];
  log: PartLogger;
}

export interface ApplyOutcome {
  created: string[];
  updated: string[];
  /** one line per refused entry, as logged */
  refused: string[];
}

/** Upserts each entry by name; logs one line per refused entry and one summing up. */
export async function applyWebhooksFile(file: WebhooksFile, deps: ApplyDeps): Promise<ApplyOutcome> {
  const out: ApplyOutcome = { created: [], updated: [], refused: [] };
  const seen = new Set<string>();
  for (const [i, entry] of file.entries.entries()) {
    const e = (entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? entry : {}) as Record<
      string,
      unknown
    >;
    const label = typeof e.name === 'string' && NAME_RE.test(e.name) ? `entry ${i} (${e.name})` : `entry ${i}`;
    try {
      if (e !== entry) throw new Refused('must be an object');
      if (typeof e.name !== 'string' || !NAME_RE.test(e.name))
        throw new Refused('"name" must be 1-64 letters, digits, "_", "." or "-"');
      if (seen.has(e.name)) throw new Refused('the same name is listed twice');
      seen.add(e.name);
      const extra = Object.keys(e).filter((k) => !FIELDS.has(k));
      if (extra.length) throw new Refused(`unknown field ${extra.map((k) => `"${k}"`).join(', ')}`);
      const name = e.name;
      if (typeof e.url !== 'string') throw new Refused('"url" must be a string');
      const url = parseTarget(e.url);
      if (typeof url === 'string') throw new Refused(url);
      await checkTarget(url, deps.allowPrivate);
      const secret = secretProblem(e.secret);
      if (secret) throw new Refused(secret);
      if (e.blocks !== undefined && typeof e.blocks !== 'boolean') throw new Refused('"blocks" must be true or false');
      if (e.owner !== undefined && (typeof e.owner !== 'string' || !deps.keyNames.includes(e.owner)))
        throw new Refused('"owner" must name a key of API_KEYS_FILE');
      const given: WebhookFilter = {};
      for (const f of ['account', 'asset', 'method'] as const) {
        if (e[f] === undefined) continue;
        if (typeof e[f] !== 'string') throw new Refused(`"${f}" must be a string`);
        given[f] = e[f] as string;
      }
      const filter = deps.feed.checkFilter(given);
      let cursor: WebhookCursor;
      if (e.after !== undefined) {
        if (typeof e.after !== 'string') throw new Refused('"after" must be an event id');
        cursor = { height: deps.feed.heightOfEventId(e.after), eventId: e.after };
      } else {
        // from the index's height now (from the start of the history while there is no index yet:
        // on a first start the node has not made its schema when the services start)
        const indexed = await deps.feed.indexedHeight().catch(() => undefined);
        cursor = { height: indexed ?? 0, eventId: null };
      }
      const id = declaredId(name);
      const done = await deps.repository.declare({
        id,
        owner: (e.owner as string | undefined) ?? OPERATOR_OWNER,
        url: e.url,
        filter,
        blocks: (e.blocks as boolean | undefined) ?? Object.keys(filter).length === 0,
        secret: deps.box.seal(e.secret as string),
        cursor,
      });
      if (done === 'refused') throw new Refused(`${id} is a subscription made through the API, not the file's`);
      out[done].push(name);
    } catch (err) {
      if (!(err instanceof Refused || err instanceof TargetRefused || isSvcError(err))) throw err;
      const line = `${WEBHOOKS_FILE_VARIABLE} ${file.path}: ${label} refused: ${err.message}`;
      out.refused.push(line);
      deps.log.warn(line);
    }
  }
  deps.log.info('webhooks file applied', {
    file: file.path,
    created: out.created.length,
    updated: out.updated.length,
    refused: out.refused.length,
  });
  return out;
}
