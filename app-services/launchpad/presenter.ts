/** The /api/launchpad answers (app-services/openapi.yaml `MetadataDocument`). */
import type { AppSchema } from '../contract';
import type { MetadataDocument } from './document';

/** Shown with every document: nobody vouches for what a launcher wrote. */
export const DOCUMENT_NOTICE =
  'Community-launched metadata: written by whoever launched the asset and verified by no one. This is a testnet document; testnet tokens have no value.';

export function presentDocument(
  metaHash: string,
  doc: MetadataDocument,
  assetId: string | null,
): AppSchema<'MetadataDocument'> {
  return {
    meta_hash: metaHash,
    name: doc.name,
    symbol: doc.symbol,
    template: doc.template,
    description: doc.description,
    logo: doc.logo ?? null,
    notice: DOCUMENT_NOTICE,
    asset_id: assetId,
  };
}
