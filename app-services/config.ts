/**
 * Settings of the app services, read from the environment by src/runtime/config.ts (npm start
 * and the app-services container). Their variables, defaults, bounds and descriptions are one
 * table (settings.ts); their types, the defaults and the variable list here are read from it.
 */
import type { KeySecret } from './keys';
import type { WebhooksFile } from './webhooks/file';
import type { MarketSettings } from './market/eligibility';
import type { SharedRiskSettings } from './risk/exposure';
import { defaultsOf, variablesOf, type SettingsOf } from '../src/lib/settings';
import { APP_SETTINGS } from './settings';

/** The lender's settings: its rows of the table (seconds in ms), and where its first pledges start. */
export type LenderSettings = SettingsOf<typeof APP_SETTINGS.lender> & {
  /** LENDER_FROM_HEIGHT: pledges created below this height belong to an earlier lender and are left alone; unset: 0, or the embedded devnet's first live height */
  fromHeight?: number;
};

/** The desk's settings: its rows of the table, and where what it paid starts. */
export type DeskSettings = SettingsOf<typeof APP_SETTINGS.desk> & {
  /** DESK_FROM_HEIGHT: trades settled below this height are an earlier desk's; unset: 0, or the embedded devnet's first live height */
  fromHeight?: number;
};

/**
 * The caps and loss rules the lender and the desk share (RISK_*): the table's rows, what the
 * risk account needs, and RISK_LISTED_ASSETS as given (undefined: unset, the embedded devnet
 * lists its pooled assets).
 */
export type RiskSettings = SettingsOf<typeof APP_SETTINGS.risk> &
  Omit<SharedRiskSettings, 'tiers'> & { listedAssets?: string[] };

/** The webhooks' settings: their rows, and the key their secrets are sealed with (WEBHOOK_SECRET_KEY; undefined: one kept in the app schema). */
export type WebhookServiceSettings = SettingsOf<typeof APP_SETTINGS.webhooks> & {
  secretKey?: KeySecret;
  /** WEBHOOKS_FILE read (its entries checked at start); undefined: none */
  file?: WebhooksFile;
};

/** Every app setting: the table's rows read, and what its special rows hold once their readers checked them. */
export type AppServicesSettings = Omit<
  SettingsOf<typeof APP_SETTINGS>,
  'keys' | 'lender' | 'desk' | 'market' | 'risk' | 'webhooks'
> & {
  /** their own PostgreSQL schema (APP_SCHEMA) */
  schema: string;
  /** LENDER_KEY / DESK_KEY; undefined: that service does not act (its reads still answer) */
  keys: { lender?: KeySecret; desk?: KeySecret };
  lender: LenderSettings;
  desk: DeskSettings;
  /** the robust price and eligibility the lender and the desk share (PRICE_*, MARKET_*) */
  market: MarketSettings;
  risk: RiskSettings;
  webhooks: WebhookServiceSettings;
};

/** Every setting at its default, from the table (the keys have none). */
export const APP_SERVICES_DEFAULTS = (({ keys: _keys, ...settings }) => defaultsOf(settings))(
  APP_SETTINGS,
) as unknown as Readonly<Omit<AppServicesSettings, 'keys'>>;

/** Every variable the app services read, with its default as documented. */
export const APP_SERVICES_VARIABLES: Record<string, string> = variablesOf(APP_SETTINGS);
