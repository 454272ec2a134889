/** Every repository of the adapter, bound to one schema. */
import { tablesIn } from '../../src/store';
import { createAccountRepository } from './accounts';
import { createActivityRepository } from './activity';
import { createAssetRepository } from './assets';
import { createAttesterRepository } from './attesters';
import { createBlockRepository } from './blocks';
import { createBridgeRepository } from './bridge';
import { createStatusRepository } from './status';
import { createDelegationRepository } from './delegations';
import { createEncumbranceRepository } from './encumbrances';
import { createInvariantRepository } from './invariants';
import { createLookupRepository } from './lookup';
import { createSettlementRepository } from './settlements';
import { createTxRepository } from './txs';

export function createRepositories(schema: string) {
  const t = tablesIn(schema);
  return {
    status: createStatusRepository(t),
    blocks: createBlockRepository(t),
    txs: createTxRepository(t),
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
