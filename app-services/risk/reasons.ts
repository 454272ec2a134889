/**
 * Why the lender or the desk did not do what was asked, as answered to the user: one code of
 * the `Reason` enum of app-services/openapi.yaml (where each is described) and a sentence
 * with the figures. One vocabulary for both services, so a refused loan, a withheld quote,
 * a refused RFQ and a cancelled offer read alike.
 */
import type { AppSchema } from '../contract';

export type Reason = AppSchema<'Reason'>;

export interface Refusal {
  reason: Reason;
  /** what was measured, for people: the figures and the setting that bound it */
  detail: string;
}

export const refusal = (reason: Reason, detail: string): Refusal => ({ reason, detail });

/** The refusal while an asset (or its issuer's community assets) is in its cool-off after a loss (risk/exposure.ts cooloffUntil). */
export function cooloffRefusal(untilMs: number): Refusal {
  return refusal(
    'loss_cooloff',
    `the asset cost the lender or the desk a loss; nothing new for it until ${new Date(untilMs).toISOString()}, when this ends by itself (RISK_LISTED_LOSS_COOLOFF_S for a listed asset, RISK_LOSS_COOLOFF_S otherwise)`,
  );
}
