/**
 * The devnet command line: argument validation (exit 2 + usage), and
 * startDevnet serving a generated history over RPC, in history and live mode.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { Wallet, getBytes } from 'ethers';
import { main, parseArgs, startDevnet, UsageError, USAGE } from '../../../devnet/cli';
import { buildEvmTx } from '../../../src/client/registry';

const ROOT = path.resolve(__dirname, '../../..');

async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

const timeOf = (t: { seconds: bigint | number; nanos: number }) => Number(t.seconds) * 1000 + Math.floor(t.nanos / 1e6);

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('devnet CLI arguments', () => {
  it('parses a full command line', () => {
    const o = parseArgs([
      '--seed',
      's',
      '--blocks',
      '5',
      '--txs-per-block=3',
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--live',
      '--block-ms',
      '200',
      '--old-chain',
      '--start-time',
      '2026-02-01T00:00:00Z',
    ]);
    expect(o).toMatchObject({
      seed: 's',
      blocks: 5,
      txsPerBlock: 3,
      port: 0,
      host: '0.0.0.0',
      live: true,
      blockMs: 200,
      oldChain: true,
      startTimeMs: Date.UTC(2026, 1, 1),
    });
  });

  it('defaults to 10 txs per block on 127.0.0.1:26657 in history mode', () => {
    expect(parseArgs(['--seed', '1', '--blocks', '0'])).toMatchObject({
      txsPerBlock: 10,
      port: 26657,
      host: '127.0.0.1',
      live: false,
      oldChain: false,
      servicesMode: false,
    });
  });

  it('takes --services-mode with --live', () => {
    expect(parseArgs(['--seed', 's', '--blocks', '5', '--live', '--services-mode'])).toMatchObject({
      live: true,
      servicesMode: true,
    });
  });

  it.each([
    [['--blocks', '5'], /--seed is required/],
    [['--seed', 's'], /--blocks is required/],
    [['--seed', 's', '--blocks', '-1'], /--blocks must be an integer/],
    [['--seed', 's', '--blocks', '1.5'], /--blocks must be an integer/],
    [['--seed', 's', '--blocks', 'ten'], /--blocks must be an integer/],
    [['--seed', 's', '--blocks', '5', '--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['--seed', 's', '--blocks', '5', '--txs-per-block', 'x'], /--txs-per-block/],
    [['--seed', 's', '--blocks', '5', '--block-ms', '100'], /only applies with --live/],
    [['--seed', 's', '--blocks', '5', '--services-mode'], /--services-mode only applies with --live/],
    [['--seed', 's', '--blocks', '5', '--start-time', '2026-01-01'], /--start-time must be a UTC time/],
    [['--seed', 's', '--blocks', '5', '--start-time', '2026-13-01T00:00:00Z'], /--start-time must be a UTC time/],
    [['--seed', 's', '--blocks', '5', '--bogus'], /unknown option --bogus/],
    [['--seed', 's', '--blocks', '5', '--blocks', '6'], /given twice/],
    [['--seed', 's', '--blocks'], /--blocks needs a value/],
    [['--seed', 's', '--blocks', '5', 'extra'], /unexpected argument/],
    [['--seed', 's', '--blocks', '5', '--live=yes'], /takes no value/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseArgs(argv as string[])).toThrow(UsageError);
    expect(() => parseArgs(argv as string[])).toThrow(message);
  });

  it('main answers a bad argument with exit code 2 and the usage on stderr', async () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await expect(main(['--seed', 's', '--blocks', 'many'])).resolves.toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).toContain('--blocks must be an integer');
    expect(written.join('')).toContain(USAGE);
  });

  it('the real process exits with code 2 on a bad argument', () => {
    const r = spawnSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'devnet/cli.ts', '--seed', 's', '--blocks', '3', '--port', 'http'],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--port must be an integer');
    expect(r.stderr).toContain('usage: npm run devnet');
    expect(r.stdout).toBe('');
  }, 60_000);
});

describe('startDevnet', () => {
  it('serves a generated history over RPC and closes', async () => {
    const devnet = await startDevnet({ seed: 'serve', blocks: 6, txsPerBlock: 3, port: 0 });
    try {
      const status = (await rpc(devnet.url, 'status')) as {
        sync_info: { latest_block_height: string };
        node_info: { network: string };
      };
      expect(status.sync_info.latest_block_height).toBe('6');
      expect(status.node_info.network).toBe(devnet.chain.chainId);
      const info = (await rpc(devnet.url, 'abci_info')) as { response: { version: string } };
      expect(info.response.version).toBe('0.12.2');
      expect(devnet.summary.height).toBe(6);
      expect(devnet.generation).toMatchObject({ blocks: 6, txs: devnet.summary.txs.total });
      // history mode: nobody produces more blocks
      await new Promise((r) => setTimeout(r, 300));
      expect(devnet.chain.height).toBe(6);
    } finally {
      await devnet.close();
    }
    await expect(fetch(`${devnet.url}/status`)).rejects.toThrow();
  }, 60_000);

  it('in live mode keeps producing blocks with scenario traffic and takes broadcast txs', async () => {
    const devnet = await startDevnet({ seed: 'live', blocks: 4, txsPerBlock: 3, port: 0, live: true, blockMs: 100 });
    try {
      const historyEnd = timeOf(devnet.chain.block(4)!.header.time);
      expect(historyEnd).toBeLessThan(Date.now());
      // an EVM tx from an unfunded wallet: admitted by CheckTx, committed with sdk/5 by the EVM module
      const stranger = new Wallet('0x' + '7'.repeat(64));
      const raw = await stranger.signTransaction({
        type: 2,
        chainId: 9000,
        nonce: 0,
        maxFeePerGas: 2n,
        maxPriorityFeePerGas: 1n,
        gasLimit: 21000n,
        to: stranger.address,
        value: 1n,
      });
      const tx = buildEvmTx([{ typeUrl: '/cosmos.evm.vm.v1.MsgEthereumTx', value: { raw: getBytes(raw) } }], {
        amount: [],
        gas: 21000n,
      });
      const checked = (await rpc(devnet.url, 'broadcast_tx_sync', { tx: Buffer.from(tx).toString('base64') })) as {
        code: number;
        hash: string;
      };
      expect(checked.code).toBe(0);
      await until(() => devnet.chain.tx(checked.hash) !== undefined && devnet.chain.height >= 10, 20_000);
      expect(devnet.chain.tx(checked.hash)!.result).toMatchObject({ code: 5, codespace: 'sdk' });
      const liveBlocks = Array.from({ length: devnet.chain.height - 4 }, (_, i) => devnet.chain.block(i + 5)!);
      expect(liveBlocks.reduce((n, b) => n + b.txs.length, 0)).toBeGreaterThan(liveBlocks.length);
      // header times are whole seconds: the first live block may share the history's last second
      expect(Number(liveBlocks[0].header.time.seconds) * 1000).toBeGreaterThan(
        Math.floor(historyEnd / 1000) * 1000 - 1,
      );
    } finally {
      await devnet.close();
    }
    const height = devnet.chain.height;
    await new Promise((r) => setTimeout(r, 300));
    expect(devnet.chain.height).toBe(height);
  }, 60_000);

  it('in live mode starts with its latest 20 blocks at the live pace, as a running chain (a node reads its head poll from them)', async () => {
    const started = Date.now();
    const devnet = await startDevnet({
      seed: 'lead-in',
      blocks: 30,
      txsPerBlock: 2,
      port: 0,
      live: true,
      blockMs: 500,
    });
    try {
      const { block_metas: metas } = (await rpc(devnet.url, 'blockchain')) as {
        block_metas: { header: { height: string; time: string } }[];
      };
      expect(metas).toHaveLength(20);
      const times = metas.map((m) => Date.parse(m.header.time)).reverse();
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(500);
      expect(times[times.length - 1] - times[0]).toBeLessThan(2 * 19 * 500);
      expect(times[times.length - 1]).toBeLessThanOrEqual(Date.now());
      expect(Number(metas[metas.length - 1].header.height)).toBeGreaterThan(30); // after the history
      expect(timeOf(devnet.chain.block(31)!.header.time)).toBeGreaterThanOrEqual(started - 20 * 500 - 1000);
    } finally {
      await devnet.close();
    }
  }, 60_000);

  it('answers as chain 0.8.3 with --old-chain: no token registry, no RIGHT_OUT route, no failures beyond the planned ones', async () => {
    const devnet = await startDevnet({
      seed: 'old',
      blocks: 40,
      txsPerBlock: 5,
      port: 0,
      oldChain: true,
      blockIntervalMs: 3 * 3_600_000,
    });
    try {
      const info = (await rpc(devnet.url, 'abci_info')) as { response: { version: string } };
      expect(info.response.version).toBe('0.8.3');
      const assetId = devnet.summary.assets[0].assetId;
      const data = Buffer.from(`0a40${Buffer.from(assetId).toString('hex')}`, 'hex').toString('hex');
      const q = (await rpc(devnet.url, 'abci_query', { path: '/svc.asset.v1.Query/TokenRegistry', data })) as {
        response: { code: number; log: string };
      };
      expect(q.response.code).not.toBe(0);
      expect(q.response.log).toContain('unknown query path');
      expect(devnet.summary.routes).toEqual(['svc-native-out', 'weth-synthetic-in']);
      expect(Object.keys(devnet.summary.failures).filter((f) => f === 'sdk/6' || f === 'bridge/3')).toEqual([]);
    } finally {
      await devnet.close();
    }
  }, 60_000);
});
