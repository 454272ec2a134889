/**
 * /api/launchpad (app-services/openapi.yaml):
 *   POST /metadata            {name, symbol, description, template, logo?} → {meta_hash}
 *   GET  /metadata/{meta_hash} the stored document with its notice
 * The document rules (fields, limits, canonical form, refusal table) are document.ts's.
 */
import type { Request } from 'express';
import { badRequest, HttpError, notFound } from '../../src/http/http-errors';
import type { SlidingWindowLimiter } from '../http/rate-limit';
import type { AppRoutes } from '../http/routes';
import { canonicalDocumentBytes, documentHash, parseMetadataDocument, type MetadataDocument } from './document';
import { presentDocument } from './presenter';
import type { LaunchpadRepository } from './repository';

export interface LaunchpadDeps {
  repository: LaunchpadRepository;
  limiter: SlidingWindowLimiter;
}

function rateLimited(limiter: SlidingWindowLimiter, req: Pick<Request, 'ip'>): void {
  const decision = limiter.hit(req.ip ?? 'unknown');
  if (!decision.allowed) {
    throw new HttpError(
      'too_many_requests',
      `too many metadata documents from this address: at most ${limiter.limit} per ${limiter.windowMs / 60_000} minutes`,
      {
        'Retry-After': String(decision.retryAfterSeconds),
      },
    );
  }
}

export function registerLaunchpadRoutes(routes: AppRoutes, deps: LaunchpadDeps): void {
  routes.post('/api/launchpad/metadata', async (req, checkBody) => {
    if (!req.is('application/json'))
      throw badRequest('send the document as a JSON body (Content-Type: application/json)');
    rateLimited(deps.limiter, req);
    const parsed = parseMetadataDocument(req.body);
    if (!parsed.ok) throw badRequest(parsed.error);
    checkBody(); // the document's MetadataRequest, on what the parser accepted
    const metaHash = documentHash(parsed.doc);
    await deps.repository.save(metaHash, canonicalDocumentBytes(parsed.doc), 'api');
    return { meta_hash: metaHash };
  });

  routes.get('/api/launchpad/metadata/{meta_hash}', async (req) => {
    const metaHash = req.params.meta_hash;
    const row = await deps.repository.find(metaHash);
    if (!row) throw notFound(`no launchpad document ${metaHash}`);
    return presentDocument(metaHash, JSON.parse(row.canonical.toString('utf8')) as MetadataDocument, row.asset_id);
  });
}
