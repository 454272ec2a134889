/** Every module's handler table: what the block handler dispatches through. */
import { mergeTables } from '../infra/dispatch';
import { assetHandlers } from './asset';
import { attestationHandlers } from './attestation';
import { bridgeHandlers } from './bridge';
import { delegationHandlers } from './delegation';
import { dexHandlers } from './dex';
import { encumbranceHandlers } from './encumbrance';
import { evmHandlers } from './evm';
import { payoutHandlers } from './payout';
import { rightsHandlers } from './rights';
import { settlementHandlers } from './settlement';
import { waterfallHandlers } from './waterfall';

export const HANDLERS = mergeTables([
  assetHandlers,
  rightsHandlers,
  settlementHandlers,
  encumbranceHandlers,
  payoutHandlers,
  attestationHandlers,
  delegationHandlers,
  waterfallHandlers,
  bridgeHandlers,
  dexHandlers,
  evmHandlers,
]);
