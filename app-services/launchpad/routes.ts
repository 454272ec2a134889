/**
 * /api/launchpad (app-services/openapi.yaml):
 *   POST /metadata            {name, symbol, description, template, logo?} → {meta_hash}
 *   GET  /metadata/{meta_hash} the stored document with its notice
 * The document rules (fields, limits, canonical form, refusal table) are document.ts's.
 */
import type { AppSchema } from '../contract';
import type { Request, RequestHandler, Router } from 'express';
import { badRequest, notFound, AppHttpError } from '../http/errors';
import { jsonBody } from '../http/body';
import type { SlidingWindowLimiter } from '../http/rate-limit';
import { canonicalDocumentBytes, documentHash, parseMetadataDocument, type MetadataDocument } from './document';
import type { LaunchpadRepository } from './repository';

/** Shown with every document: nobody vouches for what a launcher wrote. */
export const DOCUMENT_NOTICE =
  'Community-launched metadata: written by whoever launched the asset and verified by no one. This is a testnet document; testnet tokens have no value.';

const META_HASH_RE = /^[0-9a-f]{64}$/;

export interface LaunchpadDeps {
  repository: LaunchpadRepository;
  limiter: SlidingWindowLimiter;
}

export function presentDocument(metaHash: string, doc: MetadataDocument): AppSchema<'MetadataDocument'> {
  return {
    meta_hash: metaHash,
    name: doc.name,
    symbol: doc.symbol,
    template: doc.template,
    description: doc.description,
    logo: doc.logo ?? null,
    notice: DOCUMENT_NOTICE,
  };
}

function rateLimited(limiter: SlidingWindowLimiter, req: Request): void {
  const decision = limiter.hit(req.ip ?? 'unknown');
  if (!decision.allowed) {
    throw new AppHttpError(
      'too_many_requests',
      `too many metadata documents from this address: at most ${limiter.limit} per ${limiter.windowMs / 60_000} minutes`,
      {
        'Retry-After': String(decision.retryAfterSeconds),
      },
    );
  }
}

function postMetadata(deps: LaunchpadDeps): RequestHandler {
  return async (req, res) => {
    if (!req.is('application/json'))
      throw badRequest('send the document as a JSON body (Content-Type: application/json)');
    rateLimited(deps.limiter, req);
    const parsed = parseMetadataDocument(req.body);
    if (!parsed.ok) throw badRequest(parsed.error);
    const metaHash = documentHash(parsed.doc);
    await deps.repository.save(metaHash, canonicalDocumentBytes(parsed.doc), 'api');
    res.status(200).json({ meta_hash: metaHash } satisfies AppSchema<'MetaHashAnswer'>);
  };
}

function getMetadata(deps: LaunchpadDeps): RequestHandler {
  return async (req, res) => {
    const metaHash = String(req.params.meta_hash);
    if (!META_HASH_RE.test(metaHash)) throw badRequest('meta_hash must be 64 lower-case hex characters');
    const row = await deps.repository.find(metaHash);
    if (!row) throw notFound(`no launchpad document ${metaHash}`);
    res.status(200).json(presentDocument(metaHash, JSON.parse(row.canonical.toString('utf8')) as MetadataDocument));
  };
}

export function registerLaunchpadRoutes(
  router: Router,
  deps: LaunchpadDeps,
  allow: (methods: string) => RequestHandler,
): void {
  router.route('/launchpad/metadata').post(jsonBody, postMetadata(deps)).all(allow('POST'));
  router.route('/launchpad/metadata/:meta_hash').get(getMetadata(deps)).all(allow('GET'));
}
