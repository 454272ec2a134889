/** Account rows: the first time the chain recorded something about an address (`known` in lookups). */
import { Account } from '../../types';
import { load, put } from '../infra/block-cache';
import { evmAddressOf } from '../infra/values';

/** The address's Account row, created the first time the address is seen. */
export async function ensureAccount(address: string, height: number): Promise<Account> {
  const found = await load(Account, address);
  if (found) return found;
  return put(
    Account,
    Account.create({
      id: address,
      evmAddress: evmAddressOf(address) ?? undefined,
      firstHeight: height,
      assetsCreated: 0,
    }),
  );
}
