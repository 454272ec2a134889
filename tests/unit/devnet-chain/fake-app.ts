/**
 * A small Application for chain-layer tests: bank balances with fees,
 * sequences and pubkeys (the ante contract of devnet/app/types.ts), MsgSend,
 * a MsgTransfer that moves units of (asset, kind) with a typed event and
 * post-value, block-level events, and the auth Account query cosmjs needs.
 */
import { Any } from 'cosmjs-types/google/protobuf/any';
import { BaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { QueryAccountRequest, QueryAccountResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { sha256 } from '@noble/hashes/sha2';
import { decodeMessage, encodeMessage } from '../../../src/lib/contract';
import type {
  AbciEvent,
  AccountInfo,
  AnteOutcome,
  Application,
  QueryResult,
  TxContext,
  TxMessage,
  TxResult,
} from '../../../devnet/app/types';

interface FakeAccount {
  accountNumber: bigint;
  sequence: bigint;
  pubKey?: Uint8Array;
  balances: Map<string, bigint>;
}

const EMPTY = new Uint8Array(0);

export class FakeApp implements Application {
  readonly version = '0.12.2-fake';
  private readonly accounts = new Map<string, FakeAccount>();
  private readonly units = new Map<string, bigint>();
  private nextAccountNumber = 0n;
  committedHeight = 0;

  constructor(genesis: { address: string; coins: Record<string, bigint> }[]) {
    for (const g of genesis) this.credit(g.address, g.coins);
  }

  private ensure(address: string): FakeAccount {
    let acc = this.accounts.get(address);
    if (!acc) {
      acc = { accountNumber: this.nextAccountNumber++, sequence: 0n, balances: new Map() };
      this.accounts.set(address, acc);
    }
    return acc;
  }

  credit(address: string, coins: Record<string, bigint>): void {
    const acc = this.ensure(address);
    for (const [denom, amount] of Object.entries(coins))
      acc.balances.set(denom, (acc.balances.get(denom) ?? 0n) + amount);
  }

  setUnits(holder: string, assetId: string, kindId: number, units: bigint): void {
    this.units.set(`${holder}/${assetId}/${kindId}`, units);
  }

  account(address: string): AccountInfo | undefined {
    const acc = this.accounts.get(address);
    return acc && { address, accountNumber: acc.accountNumber, sequence: acc.sequence, pubKey: acc.pubKey };
  }

  balance(address: string, denom: string): bigint {
    return this.accounts.get(address)?.balances.get(denom) ?? 0n;
  }

  ante(ctx: TxContext, signerPubKeys: Uint8Array[]): AnteOutcome {
    if (ctx.signers.length === 0) return { ok: true, events: [] };
    const payer = this.ensure(ctx.signers[0]);
    for (const c of ctx.fee) {
      if ((payer.balances.get(c.denom) ?? 0n) < BigInt(c.amount)) {
        return {
          ok: false,
          code: 5,
          codespace: 'sdk',
          log: `spendable balance is smaller than ${c.amount}${c.denom}: insufficient funds`,
        };
      }
    }
    for (const c of ctx.fee) payer.balances.set(c.denom, payer.balances.get(c.denom)! - BigInt(c.amount));
    const feeText = ctx.fee.map((c) => `${c.amount}${c.denom}`).join(',');
    const events: AbciEvent[] = [
      {
        type: 'tx',
        attributes: [
          { key: 'fee', value: feeText },
          { key: 'fee_payer', value: ctx.signers[0] },
        ],
      },
    ];
    ctx.signers.forEach((s, i) => {
      const acc = this.ensure(s);
      events.push({ type: 'tx', attributes: [{ key: 'acc_seq', value: `${s}/${acc.sequence}` }] });
      acc.sequence += 1n;
      acc.pubKey = signerPubKeys[i];
    });
    return { ok: true, events };
  }

  beginBlock(height: number): AbciEvent[] {
    return [{ type: 'svc.test.v1.EventBegin', attributes: [{ key: 'height', value: JSON.stringify(String(height)) }] }];
  }

  deliverTx(ctx: TxContext, messages: TxMessage[]): TxResult {
    const events: AbciEvent[] = [];
    for (const [i, m] of messages.entries()) {
      const failure = this.runMessage(m, i, events);
      if (failure)
        return {
          code: 3,
          codespace: 'rights',
          log: failure,
          gasWanted: ctx.gasLimit,
          gasUsed: 50_000n,
          events: [],
          data: EMPTY,
        };
    }
    return {
      code: 0,
      codespace: '',
      log: '',
      gasWanted: ctx.gasLimit,
      gasUsed: 60_000n + BigInt(messages.length),
      events,
      data: EMPTY,
    };
  }

  private runMessage(m: TxMessage, msgIndex: number, events: AbciEvent[]): string | undefined {
    const idx = { key: 'msg_index', value: String(msgIndex) };
    if (m.typeUrl === '/cosmos.bank.v1beta1.MsgSend') {
      const v = m.value as { from_address: string; to_address: string; amount: { denom: string; amount: string }[] };
      for (const c of v.amount) this.credit(v.to_address, { [c.denom]: BigInt(c.amount) });
      events.push({
        type: 'transfer',
        attributes: [{ key: 'recipient', value: v.to_address }, { key: 'sender', value: v.from_address }, idx],
      });
      return undefined;
    }
    if (m.typeUrl === '/svc.rights.v1.MsgTransfer') {
      const v = m.value as { sender: string; recipient: string; asset_id: string; kind_id: number; units: string };
      const from = `${v.sender}/${v.asset_id}/${v.kind_id}`;
      const to = `${v.recipient}/${v.asset_id}/${v.kind_id}`;
      const units = BigInt(v.units);
      if ((this.units.get(from) ?? 0n) < units) return `insufficient units: ${this.units.get(from) ?? 0n} < ${units}`;
      this.units.set(from, this.units.get(from)! - units);
      this.units.set(to, (this.units.get(to) ?? 0n) + units);
      events.push({
        type: 'message',
        attributes: [{ key: 'action', value: m.typeUrl }, { key: 'sender', value: v.sender }, idx],
      });
      events.push({
        type: 'svc.rights.v1.EventTransfer',
        attributes: [
          { key: 'asset_id', value: JSON.stringify(v.asset_id) },
          { key: 'units', value: JSON.stringify(v.units) },
          idx,
        ],
      });
      return undefined;
    }
    events.push({ type: 'message', attributes: [{ key: 'action', value: m.typeUrl }, idx] });
    return undefined;
  }

  endBlock(height: number): AbciEvent[] {
    return height % 2 === 0 ? [{ type: 'svc.test.v1.EventSweep', attributes: [] }] : [];
  }

  commit(height: number): Uint8Array {
    this.committedHeight = height;
    const state =
      JSON.stringify(
        [...this.accounts.entries()].map(([a, acc]) => [
          a,
          acc.sequence.toString(),
          [...acc.balances.entries()].map(([d, n]) => `${n}${d}`),
        ]),
      ) + JSON.stringify([...this.units.entries()].map(([k, v]) => `${k}=${v}`));
    return sha256(new TextEncoder().encode(state));
  }

  /** Supply of one kind, summed over holders (the contract's request/response types). */
  private kindSupply(data: Uint8Array, at: number): QueryResult {
    const req = decodeMessage('svc.asset.v1.QueryKindSupplyRequest', data) as { asset_id: string; kind_id: number };
    const suffix = `/${req.asset_id}/${req.kind_id}`;
    const holders = [...this.units.entries()].filter(([k, v]) => k.endsWith(suffix) && v > 0n);
    if (holders.length === 0)
      return { code: 2, codespace: 'asset', log: `asset ${req.asset_id} not found`, value: EMPTY, height: at };
    const supply = holders.reduce((n, [, v]) => n + v, 0n);
    const value = encodeMessage('svc.asset.v1.QueryKindSupplyResponse', {
      supply: supply.toString(),
      holder_count: String(holders.length),
      multiplier: '1',
    });
    return { code: 0, codespace: '', log: '', value, height: at };
  }

  query(path: string, data: Uint8Array, height: number): QueryResult {
    const at = height || this.committedHeight;
    if (path === '/svc.asset.v1.Query/KindSupply') return this.kindSupply(data, at);
    if (path !== '/cosmos.auth.v1beta1.Query/Account') {
      return {
        code: 6,
        codespace: 'sdk',
        log: `unknown query path ${path}: unknown request`,
        value: EMPTY,
        height: at,
      };
    }
    const { address } = QueryAccountRequest.decode(data);
    const acc = this.accounts.get(address);
    if (!acc)
      return {
        code: 22,
        codespace: 'sdk',
        log: `rpc error: code = NotFound desc = account ${address} not found: key not found`,
        value: EMPTY,
        height: at,
      };
    const base = BaseAccount.fromPartial({
      address,
      accountNumber: acc.accountNumber,
      sequence: acc.sequence,
      pubKey: acc.pubKey
        ? Any.fromPartial({
            typeUrl: '/cosmos.crypto.secp256k1.PubKey',
            value: PubKey.encode({ key: acc.pubKey }).finish(),
          })
        : undefined,
    });
    const account = Any.fromPartial({
      typeUrl: '/cosmos.auth.v1beta1.BaseAccount',
      value: BaseAccount.encode(base).finish(),
    });
    return { code: 0, codespace: '', log: '', value: QueryAccountResponse.encode({ account }).finish(), height: at };
  }
}
