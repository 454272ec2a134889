/**
 * /api/webhooks (app-services/openapi.yaml, tag webhooks): subscriptions managed by clients with
 * an API key (API_KEYS_FILE, sent as `Authorization: Bearer <key>` or `X-API-Key`); a key sees
 * and changes only its own subscriptions (another key's is a 404, as a missing one). Routed here
 * rather than on the contract registrar (http/routes.ts), which serves one method per path:
 * /api/webhooks/{id} answers GET and DELETE.
 */
import crypto from 'crypto';
import type { Request, RequestHandler, Response, Router } from 'express';
import { HttpError, badRequest, methodNotAllowed, notFound } from '../../src/http/http-errors';
import type { ApiKey } from '../../src/http/fair-share';
import { isSvcError } from '../../src/lib/errors';
import type { BodyChecks, ParameterChecks } from '../../src/http/openapi-params';
import type { AppSchema } from '../contract';
import { jsonBody } from '../http/body';
import type { WebhookSettings } from './dispatcher';
import type { WebhookCursor, WebhookFeed, WebhookFilter } from './feed';
import { cursorOf, type DeliveryRow, type WebhookRepository, type WebhookRow } from './repository';
import { newSecret, type SecretBox } from './secrets';
import { checkTarget, parseTarget, TargetRefused } from './target';

export interface WebhookRouteDeps {
  repository: WebhookRepository;
  feed: () => WebhookFeed | undefined;
  box: () => SecretBox;
  settings: WebhookSettings;
  keys: readonly ApiKey[];
  parameters: ParameterChecks;
  body: BodyChecks;
  /** the dispatcher: told when there is something to deliver at once */
  wake: () => void;
  served: string[];
}

const DELIVERIES_LIMIT = 100;

function presentWebhook(row: WebhookRow): AppSchema<'Webhook'> {
  return {
    id: row.id,
    url: row.url,
    filter: row.filter,
    blocks: row.blocks,
    state: row.state,
    reason: row.reason,
    cursor: { height: Number(row.cursor_height), event_id: row.cursor_event },
    failures: row.failures,
    failing_since: row.failing_since?.toISOString() ?? null,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    last_error: row.last_error,
    delivered: Number(row.delivered),
    previous_secret_valid_until:
      row.previous_secret && row.previous_until && row.previous_until.getTime() > Date.now()
        ? row.previous_until.toISOString()
        : null,
    source: row.source,
    created_at: row.created_at.toISOString(),
  };
}

function presentDelivery(row: DeliveryRow): AppSchema<'WebhookDelivery'> {
  return {
    event_id: row.event_id,
    attempt: row.attempt,
    status: row.status,
    latency_ms: row.latency_ms,
    error: row.error,
    redelivery: row.redelivery,
    at: row.at.toISOString(),
  };
}

const sha256Hex = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

function presentedKey(req: Request): string | undefined {
  const header = req.get('x-api-key');
  if (header) return header.trim();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return bearer?.[1];
}

export function registerWebhookRoutes(router: Router, deps: WebhookRouteDeps): void {
  const byHash = new Map(deps.keys.map((k) => [k.sha256.toLowerCase(), k.name]));

  /** The key's name; 401 without a configured key. */
  const ownerOf = (req: Request): string => {
    const key = presentedKey(req);
    if (key === undefined)
      throw new HttpError('unauthorized', 'webhooks need an API key: Authorization: Bearer <key> or X-API-Key');
    const name = byHash.get(sha256Hex(key));
    if (name === undefined) throw new HttpError('unauthorized', 'unknown API key');
    return name;
  };

  const feedOrUnavailable = (): WebhookFeed => {
    const feed = deps.feed();
    if (!feed) throw new HttpError('unavailable', 'webhooks are not served by this process (no index to read)');
    return feed;
  };

  const invalid = (e: unknown): never => {
    if (isSvcError(e)) throw badRequest(e.message);
    throw e;
  };

  /** The filter of a body: `account`, `asset` or `method`, at most one. */
  const filterOf = (body: Record<string, unknown>): WebhookFilter => {
    const given: WebhookFilter = {};
    for (const name of ['account', 'asset', 'method'] as const)
      if (body[name] !== undefined) given[name] = body[name] as string;
    try {
      return feedOrUnavailable().checkFilter(given);
    } catch (e) {
      return invalid(e);
    }
  };

  /** The cursor `after` (an event id of /v1/stream) stands for; none: undefined. */
  const cursorAfter = (after: unknown): WebhookCursor | undefined => {
    if (after === undefined) return undefined;
    try {
      return { height: feedOrUnavailable().heightOfEventId(String(after)), eventId: String(after) };
    } catch (e) {
      return invalid(e);
    }
  };

  const checkTargetOrRefuse = async (raw: string): Promise<void> => {
    const url = parseTarget(raw);
    if (typeof url === 'string') throw badRequest(url);
    try {
      await checkTarget(url, deps.settings.allowPrivate);
    } catch (e) {
      if (e instanceof TargetRefused) throw badRequest(e.message);
      throw e;
    }
  };

  const route =
    (method: string, documentPath: string, answer: (req: Request, res: Response) => Promise<unknown>): RequestHandler =>
    async (req, res, next) => {
      try {
        const problem = deps.parameters(method, documentPath)(req);
        if (problem !== undefined) throw badRequest(problem);
        const body = await answer(req, res);
        if (!res.headersSent) res.json(body);
      } catch (e) {
        next(e);
      }
    };

  const checkBody = (method: string, path: string, req: Request) => {
    const problem = deps.body(method, path)(req.body ?? {});
    if (problem !== undefined) throw badRequest(problem);
  };

  const found = (row: WebhookRow | undefined): WebhookRow => {
    if (!row) throw notFound('no such webhook for this key');
    return row;
  };

  const LIST = '/api/webhooks';
  const ONE = '/api/webhooks/{id}';
  const sub = (action: string) => `/api/webhooks/{id}/${action}`;
  deps.served.push(`GET ${LIST}`, `POST ${LIST}`, `GET ${ONE}`, `DELETE ${ONE}`);
  for (const a of ['pause', 'resume', 'rotate-secret', 'redeliver']) deps.served.push(`POST ${sub(a)}`);
  deps.served.push(`GET ${sub('deliveries')}`);

  router
    .route('/webhooks')
    .get(
      route('GET', LIST, async (req) => ({ webhooks: (await deps.repository.list(ownerOf(req))).map(presentWebhook) })),
    )
    .post(
      jsonBody,
      route('POST', LIST, async (req, res) => {
        const owner = ownerOf(req);
        checkBody('POST', LIST, req);
        const body = req.body as Record<string, unknown>;
        await checkTargetOrRefuse(String(body.url));
        const filter = filterOf(body);
        const after = cursorAfter(body.after);
        let cursor = after;
        if (!cursor) {
          const indexed = await feedOrUnavailable().indexedHeight();
          if (indexed === undefined) throw new HttpError('unavailable', 'the index cannot be read; retry later');
          cursor = { height: indexed, eventId: null };
        }
        const secret = newSecret();
        const row = await deps.repository.createWithin(
          {
            owner,
            url: String(body.url),
            filter,
            blocks: typeof body.blocks === 'boolean' ? body.blocks : Object.keys(filter).length === 0,
            secret: deps.box().seal(secret),
            cursor,
          },
          deps.settings.maxPerKey,
        );
        if (!row) throw badRequest(`this key has ${deps.settings.maxPerKey} webhooks already (WEBHOOK_MAX_PER_KEY)`);
        deps.wake();
        res.status(201);
        return { ...presentWebhook(row), secret };
      }),
    );

  router
    .route('/webhooks/:id')
    .get(
      route('GET', ONE, async (req) =>
        presentWebhook(found(await deps.repository.get(String(req.params.id), ownerOf(req)))),
      ),
    )
    .delete(
      route('DELETE', ONE, async (req) => {
        if (!(await deps.repository.remove(String(req.params.id), ownerOf(req)))) found(undefined);
        return { deleted: true, id: req.params.id };
      }),
    );

  router.post(
    '/webhooks/:id/pause',
    route('POST', sub('pause'), async (req) =>
      presentWebhook(found(await deps.repository.pause(String(req.params.id), ownerOf(req)))),
    ),
  );
  router.post(
    '/webhooks/:id/resume',
    jsonBody,
    route('POST', sub('resume'), async (req) => {
      const owner = ownerOf(req);
      checkBody('POST', sub('resume'), req);
      const cursor = cursorAfter((req.body as Record<string, unknown> | undefined)?.after);
      const row = presentWebhook(found(await deps.repository.resume(String(req.params.id), owner, cursor)));
      deps.wake();
      return row;
    }),
  );
  router.post(
    '/webhooks/:id/rotate-secret',
    route('POST', sub('rotate-secret'), async (req) => {
      const secret = newSecret();
      const row = found(
        await deps.repository.rotate(
          String(req.params.id),
          ownerOf(req),
          deps.box().seal(secret),
          deps.settings.rotateOverlapMs,
        ),
      );
      return { ...presentWebhook(row), secret };
    }),
  );
  router.get(
    '/webhooks/:id/deliveries',
    route('GET', sub('deliveries'), async (req) => {
      const row = found(await deps.repository.get(String(req.params.id), ownerOf(req)));
      return { deliveries: (await deps.repository.deliveries(row.id, DELIVERIES_LIMIT)).map(presentDelivery) };
    }),
  );
  router.post(
    '/webhooks/:id/redeliver',
    jsonBody,
    route('POST', sub('redeliver'), async (req, res) => {
      const row = found(await deps.repository.get(String(req.params.id), ownerOf(req)));
      checkBody('POST', sub('redeliver'), req);
      const eventId = String((req.body as Record<string, unknown>).event_id);
      const at = cursorAfter(eventId)!;
      const cursor = cursorOf(row);
      if (at.height > cursor.height)
        throw badRequest("event_id is after the webhook's cursor: it is not delivered yet");
      await deps.repository.askRedelivery(row.id, eventId);
      deps.wake();
      res.status(202);
      return { queued: true, event_id: eventId };
    }),
  );

  // any other method on these paths: 405 with Allow, as on every other /api path
  for (const [path, allow] of [
    ['/webhooks', 'GET, POST'],
    ['/webhooks/:id', 'GET, DELETE'],
    ['/webhooks/:id/pause', 'POST'],
    ['/webhooks/:id/resume', 'POST'],
    ['/webhooks/:id/rotate-secret', 'POST'],
    ['/webhooks/:id/deliveries', 'GET'],
    ['/webhooks/:id/redeliver', 'POST'],
  ] as const)
    router.all(path, methodNotAllowed(allow));
}
