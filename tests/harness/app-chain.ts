/**
 * A devnet chain for the app-services tests: the real svc app and CometBFT RPC layer on a
 * loopback port, keys funded at genesis, blocks made on demand (or on a timer).
 */
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { sha256 } from '@noble/hashes/sha2';
import { createSvcApp, type SvcApp } from '../../devnet/app';
import { balance } from '../../devnet/app/modules/bank';
import { DevnetChain, startRpcServer, type DevnetRpcServer } from '../../devnet/chain';
import * as messages from '../../app-services/chain/messages';
import { bytesToHex } from '../../src/lib/bytes';

export const TEST_CHAIN_ID = 'svc-devnet-1';
export const GAS_DENOM = 'usvc';
export const STABLE_DENOM = 'uusdc';
export const TEST_FEE = { amount: [{ denom: GAS_DENOM, amount: '5000' }], gas: 2_000_000n };

export interface TestKey {
  name: string;
  /** 64 hex characters */
  hex: string;
  wallet: DirectSecp256k1Wallet;
  address: string;
}

export async function testKey(name: string): Promise<TestKey> {
  const key = sha256(new TextEncoder().encode(`app-services-test/${name}`));
  const wallet = await DirectSecp256k1Wallet.fromKey(key, 'svc');
  return { name, hex: bytesToHex(key), wallet, address: (await wallet.getAccounts())[0].address };
}

export interface TestChain {
  app: SvcApp;
  chain: DevnetChain;
  rpcUrl: string;
  /** executes the mempool as the next block */
  produceBlock(): void;
  /** a block every `ms` until stopBlocks() */
  startBlocks(ms: number): void;
  stopBlocks(): void;
  balance(address: string, denom?: string): bigint;
  close(): Promise<void>;
}

export async function startTestChain(funded: readonly string[]): Promise<TestChain> {
  const coins = [
    { denom: GAS_DENOM, amount: '1000000000000' },
    { denom: STABLE_DENOM, amount: '1000000000000' },
  ];
  const app = createSvcApp({ genesis: { balances: funded.map((address) => ({ address, coins })) } });
  const chain = await DevnetChain.create({ app, chainId: TEST_CHAIN_ID });
  let timeMs = Date.now() - 60_000;
  const produceBlock = () => void chain.produceBlock((timeMs += 1000));
  produceBlock();
  const server: DevnetRpcServer = await startRpcServer(chain, { host: '127.0.0.1', port: 0 });
  let timer: NodeJS.Timeout | undefined;
  const stopBlocks = () => {
    clearInterval(timer);
    timer = undefined;
  };
  return {
    app,
    chain,
    rpcUrl: server.url,
    produceBlock,
    startBlocks(ms) {
      stopBlocks();
      timer = setInterval(produceBlock, ms);
    },
    stopBlocks,
    balance: (address, denom = STABLE_DENOM) => balance(app.stateAt(chain.height), address, denom),
    async close() {
      stopBlocks();
      await server.close();
    },
  };
}

/** A bank send of the stable denom, as the services send it (app-services/chain/messages.ts). */
export const bankSend = (from: string, to: string, amount: bigint, denom = STABLE_DENOM) =>
  messages.bankSend(from, to, denom, amount);
