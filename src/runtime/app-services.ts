/**
 * The app services as `npm start` and the app-services container run them: their own pool,
 * the keys (on the embedded devnet, its lender and desk accounts unless LENDER_KEY /
 * DESK_KEY say otherwise), the devnet's launch documents, and the start that follows
 * PostgreSQL and the chain.
 */
import { Pool } from 'pg';
import { getBytes, ripemd160, sha256, SigningKey } from 'ethers';
import { AppServices, type AppServicesOptions } from '../../app-services';
import type { AppServicesSettings } from '../../app-services/config';
import { KeySecret } from '../../app-services/keys';
import { privateKey } from '../../devnet/scenario/accounts';
import { LAUNCH_PLANS, metadataDocument } from '../../devnet/scenario/flows/launch';
import { bytesToHex } from '../lib/bytes';
import { toBech32 } from '../lib/address';
import { StreamFeed } from '../../rest-adapter/stream/feed';

/**
 * What the services take (AppServicesOptions) less what this module makes for them (their pool, the
 * devnet's launch documents), and the embedded devnet they may run beside.
 */
export interface AppServicesLaunch extends Omit<AppServicesOptions, 'pool' | 'devnetDocuments' | 'webhookFeed'> {
  /** set when the chain is the embedded devnet of this seed */
  devnetSeed?: string;
  /** the embedded devnet's first live height: its history's loans and trades were the scripted lender's and desk's */
  devnetLiveFrom?: number;
  /** the embedded devnet's pooled assets: the listed tier where RISK_LISTED_ASSETS names none */
  devnetPooledAssets?: string[];
}

/** The cosmos address of one of the embedded devnet's role accounts (ripemd160(sha256(compressed public key))). */
export function devnetAddress(seed: string, role: string, hrp: string): string {
  const publicKey = SigningKey.computePublicKey(privateKey(seed, role), true);
  return toBech32(getBytes(ripemd160(sha256(publicKey))), hrp);
}

/**
 * The embedded devnet's role keys, where the environment gives none; the lender's and the
 * desk's first height, where LENDER_FROM_HEIGHT / DESK_FROM_HEIGHT give none: the history's
 * pledges were paid by its scripted lender and its trades made by its scripted desk, not the
 * services' to pay again or to count as their cost; the listed tier, where RISK_LISTED_ASSETS
 * names none: the scenario's pooled assets (its main equity and community asset); and, where
 * MARKET_TRUSTED_RELEASERS names none, the scenario's releaser account, the releaser role of
 * every asset the scenario launches (devnet/scenario/flows/launch.ts), so its assets stay
 * collateral.
 */
function withDevnetDefaults(
  settings: AppServicesSettings,
  seed: string,
  liveFrom: number,
  pooledAssets: string[],
  hrp: string,
): AppServicesSettings {
  const key = (role: string) => new KeySecret(bytesToHex(privateKey(seed, role)), `the devnet's ${role} key`);
  const fromHeight = settings.lender.fromHeight ?? liveFrom;
  const trustedReleasers = settings.market.trustedReleasers.length
    ? settings.market.trustedReleasers
    : [devnetAddress(seed, 'releaser', hrp)];
  return {
    ...settings,
    keys: { lender: settings.keys.lender ?? key('lender'), desk: settings.keys.desk ?? key('desk') },
    lender: { ...settings.lender, fromHeight },
    desk: { ...settings.desk, fromHeight: settings.desk.fromHeight ?? liveFrom },
    risk: { ...settings.risk, listedAssets: settings.risk.listedAssets ?? pooledAssets },
    market: { ...settings.market, trustedReleasers },
  };
}

export function createAppServices(o: AppServicesLaunch): { services: AppServices; close: () => Promise<void> } {
  const pool = new Pool({ connectionString: o.databaseUrl, max: 5, options: '-c statement_timeout=10000' });
  pool.on('error', () => undefined); // idle connection cut: the next query reconnects
  const onDevnet = o.devnetSeed !== undefined;
  const services = new AppServices({
    pool,
    databaseUrl: o.databaseUrl,
    settings: onDevnet
      ? withDevnetDefaults(o.settings, o.devnetSeed!, o.devnetLiveFrom ?? 0, o.devnetPooledAssets ?? [], o.hrp)
      : o.settings,
    hrp: o.hrp,
    gasDenom: o.gasDenom,
    stableDenom: o.stableDenom,
    indexerSchema: o.indexerSchema,
    chain: o.chain,
    devnetDocuments: onDevnet ? LAUNCH_PLANS.map((plan) => metadataDocument(plan).doc) : undefined,
    log: o.log,
    intentObserver: o.intentObserver,
    // the webhooks' events are /v1/stream's, read from the indexer's schema as its replay reads them
    webhookFeed: new StreamFeed({ pool, schema: o.indexerSchema, hrp: o.hrp, gasDenom: o.gasDenom }),
    apiKeys: o.apiKeys,
    webhookObserver: o.webhookObserver,
  });
  return {
    services,
    async close() {
      await services.stop();
      await pool.end();
    },
  };
}
