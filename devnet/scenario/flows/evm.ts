/**
 * EVM: MsgEthereumTx signed with the seed's ethers wallets, mostly in the
 * Cosmos EVM form (/cosmos.evm.vm.v1.MsgEthereumTx, signed RLP) and some in
 * the Ethermint form (/ethermint.evm.v1.MsgEthereumTx, DynamicFeeTx in an
 * Any): a right-token precompile transfer, a revert for insufficient units, a
 * revert for a policy denial (rule path in the reason), a bundle-token
 * transfer, a value transfer and a contract creation.
 */
import { Interface } from 'ethers';
import type { Ctx } from '../context';
import type { EvmActor } from '../accounts';
import { script, type Flow } from '../flow';
import { bundleTokenAddress, rightTokenAddress } from '../../../src/lib/ids';
import { toEvmAddress } from '../../../src/lib/address';
import { somePart } from './util';

const ERC20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)']);
/** Init code of a tiny contract (stored as code; calls to it are not executed by the devnet). */
const INIT_CODE =
  '0x6080604052348015600f57600080fd5b50603f80601d6000396000f3fe6080604052600080fdfea164736f6c6343000818000a';

export type EvmForm = 'cosmos' | 'ethermint';

/** Right-token transfer of `units` of (asset, kind) to an account; the chain decides success or revert. */
export function tokenTransfer(
  ctx: Ctx,
  from: EvmActor,
  assetId: string,
  kindId: number | 'bundle',
  to: string,
  units: bigint,
  form: EvmForm,
) {
  const token = kindId === 'bundle' ? bundleTokenAddress(assetId) : rightTokenAddress(assetId, kindId);
  return ctx.submitEvm(
    from,
    { to: token, data: ERC20.encodeFunctionData('transfer', [toEvmAddress(to), units]) },
    form,
  );
}

export function valueTransfer(ctx: Ctx, from: EvmActor, to: string, value: bigint, form: EvmForm) {
  return ctx.submitEvm(from, { to: toEvmAddress(to), value }, form);
}

export function evmFlow(): Flow {
  return script('evm', {}, [
    async (ctx) => {
      const equity = ctx.issuedAsset('equity');
      if (!equity || !ctx.issuedAsset('kyc')) return 'wait';
      const [rich, empty] = ctx.cast.evm;
      const units = somePart(ctx, ctx.availableUnits(rich.address, equity.assetId, 0), 10n);
      ctx.reserveUnits(rich.address, equity.assetId, 0, units);
      await tokenTransfer(ctx, rich, equity.assetId, 0, ctx.cast.holders[0].address, units, 'cosmos');
      // holds nothing: reverts with "svc: insufficient transferable units"
      await tokenTransfer(ctx, empty, equity.assetId, 0, ctx.cast.holders[0].address, 1_000_000n, 'ethermint');
    },
    async (ctx) => {
      const equity = ctx.issuedAsset('equity')!;
      const kyc = ctx.issuedAsset('kyc')!;
      const rich = ctx.cast.evm[0];
      const outsider = ctx.cast.holders[ctx.cast.holders.length - 1];
      // the outsider has no live kyc attestation: reverts with "svc: policy denied: policy.transfer"
      if (!ctx.canReceive(kyc.assetId, 0, outsider.address))
        await tokenTransfer(ctx, rich, kyc.assetId, 0, outsider.address, 1n, 'cosmos');
      const bundles = ctx.availableBundles(rich.address, equity.assetId, [0, 1, 2]);
      const units = somePart(ctx, bundles, 10n);
      [0, 1, 2].forEach((k) => ctx.reserveUnits(rich.address, equity.assetId, k, units));
      await tokenTransfer(ctx, rich, equity.assetId, 'bundle', ctx.cast.holders[1].address, units, 'ethermint');
    },
    async (ctx) => {
      const payer = ctx.cast.evm[2];
      await valueTransfer(ctx, payer, ctx.cast.holders[2].address, ctx.rng.bigint(1n, 1_000_000n), 'cosmos');
      await ctx.submitEvm(payer, { to: null, data: INIT_CODE }, ctx.rng.chance(0.5) ? 'cosmos' : 'ethermint');
    },
  ]);
}
