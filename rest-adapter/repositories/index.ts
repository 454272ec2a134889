/** Every repository of the adapter, bound to one schema. */
import { tablesIn } from '../db/tables';
import { createAccountRepository } from './accountRepository';
import { createActivityRepository } from './activityRepository';
import { createAssetRepository } from './assetRepository';
import { createAttesterRepository } from './attesterRepository';
import { createBridgeRepository } from './bridgeRepository';
import { createChainRepository } from './chainRepository';
import { createDelegationRepository } from './delegationRepository';
import { createEncumbranceRepository } from './encumbranceRepository';
import { createInvariantRepository } from './invariantRepository';
import { createLookupRepository } from './lookupRepository';
import { createSettlementRepository } from './settlementRepository';
import { createTxRepository } from './txRepository';

export function createRepositories(schema: string, gasDenom: string) {
  const t = tablesIn(schema);
  return {
    chain: createChainRepository(t),
    txs: createTxRepository(t, gasDenom),
    assets: createAssetRepository(t),
    activity: createActivityRepository(t),
    accounts: createAccountRepository(t),
    attesters: createAttesterRepository(t),
    settlements: createSettlementRepository(t),
    encumbrances: createEncumbranceRepository(t),
    delegations: createDelegationRepository(t),
    bridge: createBridgeRepository(t),
    lookup: createLookupRepository(t),
    invariants: createInvariantRepository(t),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
