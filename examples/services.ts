/**
 * Try the lender and the trade desk by hand, against a running `npm start`
 * (docs/app-services.md, "Try it"), as a user of your own would from a script or a wallet:
 *
 *   npm run example -- borrow [--amount 5000]   pledge shares to the lender (one pledge per tx, every kind) and wait for the loan
 *   npm run example -- repay                    repay your oldest active loan and wait for its pledges to come back
 *   npm run example -- sell [--amount 5000]     ask the desk for a quote to sell shares, accept its proposal, wait for the trade
 *   npm run example -- buy [--amount 100]       the same, buying shares from the desk
 *
 * It signs as one of the devnet's cast accounts (keys derived from DEVNET_SEED), by default
 * `visitor`, which the scenario never signs for: it holds 10,000 shares of each pooled asset
 * and a million stable units. Amounts are in whole units of the stable denom.
 *
 * Options (or the variables in brackets): --url (EXAMPLE_URL) and --rpc (EXAMPLE_RPC), by
 * default those of the npm start running on DATA_DIR (its DATA_DIR/npm-start.json; else
 * http://127.0.0.1:3000 and http://127.0.0.1:26657), --asset (a symbol or an asset id, default
 * LNW), --account (a cast name, default visitor), --seed (DEVNET_SEED, default svc-devnet).
 * Before it signs anything it checks that --url indexes the chain --rpc serves (the same block
 * hash at the API's indexed height), and refuses a mismatched pair in one line (exit 2).
 * Every step is printed; a refusal prints the service's reason and exits 1; no stack traces.
 */
import path from 'path';
import { parseArgs } from 'util';
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { connectChain, type ChainClient, type CommittedTx } from '../app-services/chain/chain-client';
import { ChainQueries } from '../app-services/chain/queries';
import { privateKey } from '../devnet/scenario/accounts';
import { signTx } from '../src/client/registry';
import { loadChainConfig } from '../src/lib/config';
import { runningStart } from '../src/runtime/running-file';

const WHOLE = 1_000_000n;
const BPS = 10_000n;
const FEE = { denom: '', amount: '5000' };
const GAS = 2_000_000;
const WAIT_MS = 120_000;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are read field by field

interface Msg {
  typeUrl: string;
  value: Record<string, unknown>;
}

class Refused extends Error {}
/** --url and --rpc that are not one deployment, or one that does not answer: exit 2. */
export class NotOneDeployment extends Error {}

const DEFAULT_URL = 'http://127.0.0.1:3000';
const DEFAULT_RPC = 'http://127.0.0.1:26657';

/** An error's message with its cause's (fetch's "fetch failed" says nothing without it). */
function described(e: unknown): string {
  // duck-typed: fetch's errors may come from another realm
  const asError = (x: unknown) =>
    typeof x === 'object' && x !== null && 'message' in x ? (x as NodeJS.ErrnoException) : undefined;
  const error = asError(e);
  if (!error) return String(e);
  const cause = asError((error as { cause?: unknown }).cause);
  return cause ? `${error.message}: ${cause.code ?? cause.message}` : error.message;
}

/** --url and --rpc as given, else EXAMPLE_URL / EXAMPLE_RPC, else the npm start running on DATA_DIR, else the defaults. */
export function endpointsOf(
  given: { url?: string; rpc?: string },
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): { url: string; rpc: string; from: string } {
  const dataDir = path.resolve(cwd, env.DATA_DIR ?? '.data');
  const running = runningStart(dataDir);
  const url = given.url ?? env.EXAMPLE_URL ?? running?.url ?? DEFAULT_URL;
  const rpc = given.rpc ?? env.EXAMPLE_RPC ?? running?.rpc ?? DEFAULT_RPC;
  const from = running
    ? `the npm start running on DATA_DIR ${dataDir} (pid ${running.pid})`
    : `no npm start found on DATA_DIR ${dataDir}: the defaults`;
  return { url: url.replace(/\/+$/, ''), rpc: rpc.replace(/\/+$/, ''), from };
}

async function getJson(url: string, what: string): Promise<Json> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    throw new NotOneDeployment(
      `cannot reach ${what} at ${url} (${described(e)}): is npm start running? Its ready banner prints both addresses; pass --url and --rpc, or set DATA_DIR to the one it runs on`,
    );
  }
  const text = await res.text();
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new NotOneDeployment(`${url} answered ${res.status}, not JSON: is ${what} there?`);
  }
}

/** Tries of the check while the API answers its indexed block with something else (a 503 while it is busy). */
const CHECK_TRIES = 5;

/** Refuses --url and --rpc unless the API's indexed block is the chain's block at that height. */
export async function checkOneDeployment(url: string, rpc: string, retryMs = 1000): Promise<void> {
  for (let tried = 1; ; tried++) {
    const status = await getJson(`${url}/v1/status`, 'the API (--url)');
    const height = Number(status.indexed_height);
    if (!Number.isInteger(height) || height < 1) return; // nothing indexed yet: nothing to compare
    const [block, chain] = await Promise.all([
      getJson(`${url}/v1/blocks/${height}`, 'the API (--url)'),
      getJson(`${rpc}/block?height=${height}`, 'the chain RPC (--rpc)'),
    ]);
    const indexed = String(block.block?.hash ?? '').toUpperCase(); // BlockDetail (openapi.yaml)
    if (indexed) return compareBlocks(url, rpc, height, indexed, chain);
    if (tried === CHECK_TRIES)
      throw new NotOneDeployment(
        `${url} reports block ${height} indexed but answered ${block.code ?? 'no block'}${block.error ? ` (${block.error})` : ''} for it, ${CHECK_TRIES} times: is the API overloaded? Try again`,
      );
    await sleep(retryMs);
  }
}

function compareBlocks(url: string, rpc: string, height: number, indexed: string, chain: Json): void {
  const served = String(chain.result?.block_id?.hash ?? '').toUpperCase();
  if (!served)
    throw new NotOneDeployment(
      `the chain RPC at ${rpc} has no block ${height}, which ${url} has indexed: --url and --rpc are not one deployment; pass the --rpc of the npm start serving ${url} (its ready banner prints it)`,
    );
  if (indexed !== served)
    throw new NotOneDeployment(
      `--url ${url} and --rpc ${rpc} are not one deployment: block ${height} is ${indexed.slice(0, 12)}… in the API, ${served.slice(0, 12)}… on the chain; pass the --rpc of the npm start serving ${url} (its ready banner prints it)`,
    );
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const stable = (n: bigint | string) => `${(Number(n) / 1e6).toLocaleString('en-US', { maximumFractionDigits: 6 })}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ExampleOptions {
  url: string;
  rpc: string;
  asset: string;
  account: string;
  seed: string;
  /** whole units of the stable denom; undefined: the command's default */
  amount?: bigint;
  log?: (line: string) => void;
}

/** One user: a cast key, the services over HTTP, the chain over RPC. */
class User {
  private constructor(
    readonly address: string,
    private readonly wallet: DirectSecp256k1Wallet,
    readonly chain: ChainClient,
    readonly queries: ChainQueries,
    private readonly o: ExampleOptions,
    readonly config: ReturnType<typeof loadChainConfig>,
  ) {}

  static async open(o: ExampleOptions): Promise<User> {
    const config = loadChainConfig(process.env);
    const wallet = await DirectSecp256k1Wallet.fromKey(privateKey(o.seed, o.account), config.hrp);
    const [{ address }] = await wallet.getAccounts();
    const chain = await connectChain(o.rpc);
    return new User(address, wallet, chain, new ChainQueries(o.rpc), o, config);
  }

  log(line: string): void {
    (this.o.log ?? say)(line);
  }

  async get(path: string): Promise<Json> {
    const res = await fetch(this.o.url + path);
    const body = (await res.json()) as Json;
    if (res.status !== 200)
      throw new Refused(`GET ${path}: ${res.status} ${body.code}${reasonOf(body)}: ${body.error}`);
    return body;
  }

  async post(path: string, payload: unknown): Promise<Json> {
    const res = await fetch(this.o.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const body = (await res.json()) as Json;
    if (res.status !== 200)
      throw new Refused(`POST ${path}: ${res.status} ${body.code}${reasonOf(body)}: ${body.error}`);
    return body;
  }

  /** Signs, broadcasts and waits for the tx's block; throws unless it succeeded. */
  async submit(what: string, messages: Msg[]): Promise<CommittedTx> {
    const account = await this.chain.account(this.address);
    if (!account) throw new Refused(`the chain does not know ${this.address}: fund it first`);
    const tx = await signTx(this.wallet, {
      messages,
      accountNumber: account.accountNumber,
      sequence: account.sequence,
      chainId: this.chain.chainId,
      fee: { amount: [{ ...FEE, denom: this.config.gasDenom }], gas: GAS },
      signerAddress: this.address,
    });
    const sent = await this.chain.broadcast(tx);
    if (sent.code !== 0)
      throw new Refused(`${what}: the chain refused it (${sent.codespace}/${sent.code} ${sent.log})`);
    const committed = await until(`${what} in a block`, () => this.chain.findTx(sent.hash));
    if (committed.code !== 0)
      throw new Refused(
        `${what}: failed in block ${committed.height} (${committed.codespace}/${committed.code} ${committed.log})`,
      );
    this.log(`  ${what}: tx ${committed.hash} in block ${committed.height}`);
    return committed;
  }
}

function reasonOf(body: Json): string {
  return body.reason ? ` (${body.reason})` : '';
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined>, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Refused(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** The desk's quotes and the one whole-share quote of the asset the options name. */
async function wholeShareQuote(user: User, asset: string): Promise<Json> {
  const { quotes, not_quoted: notQuoted } = await user.get('/api/desk/quotes');
  const named = (q: Json) => q.asset_id === asset || q.symbol === asset;
  const quote = (quotes as Json[]).find((q) => named(q) && q.kind === -1);
  if (quote) return quote;
  const why = (notQuoted as Json[]).find(named);
  throw new Refused(`the desk does not quote ${asset}${why ? `: ${why.reason}: ${why.detail}` : ''}`);
}

/** Pledges `units` of every kind of the asset to the lender (one per tx), then waits for the loan or its refusal. */
async function borrow(user: User, o: ExampleOptions): Promise<Json> {
  const terms = await user.get('/api/lender/terms');
  const quote = await wholeShareQuote(user, o.asset);
  const capacity = (terms.capacity as Json[]).find((c) => c.asset_id === quote.asset_id);
  if (!capacity || BigInt(capacity.lendable) === 0n)
    throw new Refused(
      `the lender lends nothing against ${quote.symbol} now: ${capacity?.limited_by}: ${capacity?.detail}`,
    );
  const wanted = o.amount !== undefined ? o.amount * WHOLE : BigInt(terms.max_principal);
  const principal = wanted < BigInt(capacity.lendable) ? wanted : BigInt(capacity.lendable);
  const pool = await user.queries.poolPrice(quote.asset_id, terms.denom);
  if (!pool) throw new Refused(`${quote.symbol} has no pool`);
  // valued at the lower of the pool's spot and its average (the desk's mid): pledge 10 % more than that needs, as the price moves
  const low = pool.pricePerWhole < BigInt(quote.mid) ? pool.pricePerWhole : BigInt(quote.mid);
  const units = (((principal * BPS * WHOLE) / (BigInt(terms.ltv_bps) * low) / WHOLE + 1n) * WHOLE * 110n) / 100n;
  const kinds = (await user.get(`/v1/assets/${quote.asset_id}`)).asset.kinds as Json[];
  user.log(
    `borrow ${stable(principal)} against ${units / WHOLE} shares of ${quote.symbol} (every kind, one pledge per tx) from ${terms.lender}`,
  );
  const ids: string[] = [];
  let lastPledge = 0;
  for (const k of kinds) {
    const tx = await user.submit(`pledge kind ${k.kind_id}`, [
      {
        typeUrl: '/svc.encumbrance.v1.MsgCreateEncumbrance',
        value: {
          creator: user.address,
          kind: 'ENCUMBRANCE_KIND_PLEDGE',
          asset_id: quote.asset_id,
          kind_id: k.kind_id,
          holder: user.address,
          units: units.toString(),
          beneficiary: terms.lender,
          income_to_beneficiary: true,
          exercisable: true,
        },
      },
    ]);
    ids.push(encumbranceIdOf(tx));
    lastPledge = tx.height;
  }
  const loan = await until('the lender to open the loan (or refuse the set)', async () => {
    const { loans } = await user.get(`/api/lender/loans?address=${user.address}`);
    return (loans as Json[]).find(
      (l) =>
        (l.pledges as number[]).map(String).join() === ids.join() &&
        ['active', 'refused', 'cancelled'].includes(l.status),
    );
  });
  if (loan.status !== 'active') throw new Refused(`the lender refused the pledges: ${loan.reason}: ${loan.detail}`);
  const opened = await user.chain.findTx(loan.open_tx);
  const blocks = (opened?.height ?? 0) - lastPledge;
  user.log(
    `loan ${loan.id} active: principal ${stable(loan.principal)} paid in block ${opened?.height} (${blocks} block${blocks === 1 ? '' : 's'} after the last pledge)${loan.limited_by ? `, limited by ${loan.limited_by}: ${loan.detail}` : ''}`,
  );
  return { ...loan, blocks_after_last_pledge: blocks };
}

function encumbranceIdOf(tx: CommittedTx): string {
  const e = tx.events.find((x) => x.type === 'svc.encumbrance.v1.EventEncumbranceCreated');
  const raw = e?.attributes.find((a) => a.key === 'encumbrance_id')?.value;
  if (raw === undefined) throw new Error(`tx ${tx.hash} created no encumbrance`);
  return String(JSON.parse(raw));
}

/** Proposes the repayment of the oldest active loan and waits for it to be repaid and its pledges released. */
async function repay(user: User): Promise<Json> {
  const terms = await user.get('/api/lender/terms');
  const { loans } = await user.get(`/api/lender/loans?address=${user.address}`);
  const loan = (loans as Json[]).filter((l) => l.status === 'active').pop();
  if (!loan) throw new Refused(`${user.address} has no active loan`);
  user.log(`repay loan ${loan.id}: ${stable(loan.principal)} to ${terms.lender}`);
  await user.submit('repayment proposal', [
    {
      typeUrl: '/svc.settlement.v1.MsgPropose',
      value: {
        proposer: user.address,
        counterparty: terms.lender,
        legs: [{ direction: 'LEG_DIRECTION_GIVE', coin: { denom: terms.denom, amount: loan.principal } }],
        expiry: new Date(Date.now() + 600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    },
  ]);
  const repaid = await until('the lender to accept the repayment', async () => {
    const after = (await user.get(`/api/lender/loans?address=${user.address}`)).loans as Json[];
    return after.find((l) => l.id === loan.id && l.status === 'repaid');
  });
  const released = await Promise.all((loan.pledges as number[]).map((id) => user.queries.encumbrance(BigInt(id))));
  user.log(
    `loan ${loan.id} repaid in ${repaid.close_tx}; pledges ${released.map((e) => `${e?.id} ${e?.status}`).join(', ')}`,
  );
  return repaid;
}

/** An RFQ for about `amount` stable, the desk's proposal accepted, then the settlement. */
async function trade(user: User, o: ExampleOptions, side: 'sell' | 'buy'): Promise<Json> {
  const quote = await wholeShareQuote(user, o.asset);
  const price = side === 'sell' ? quote.bid : quote.ask;
  if (price === null)
    throw new Refused(
      `the desk is not ${side === 'sell' ? 'buying' : 'selling'} ${quote.symbol}: ${quote[`${side === 'sell' ? 'bid' : 'ask'}_withheld`]}`,
    );
  const amount = (o.amount ?? (side === 'sell' ? 5000n : 100n)) * WHOLE;
  // the RFQ is priced at the book of its own block: 1 % under the amount keeps a trade at the cap within it
  const units = (amount * WHOLE * 99n) / 100n / BigInt(price);
  user.log(`${side} ${stable(units)} shares of ${quote.symbol} at ${stable(price)} per share (RFQ)`);
  const rfq = await user.post('/api/desk/rfq', {
    address: user.address,
    asset_id: quote.asset_id,
    kind: -1,
    side,
    units: units.toString(),
  });
  user.log(
    `  the desk proposed settlement ${rfq.settlement_id}: ${rfq.side} ${rfq.units} units for ${stable(rfq.amount)}, until ${rfq.expiry}`,
  );
  const accepted = await user.submit('accept', [
    {
      typeUrl: '/svc.settlement.v1.MsgAccept',
      value: { counterparty: user.address, settlement_id: String(rfq.settlement_id) },
    },
  ]);
  const settlement = await user.queries.settlement(BigInt(rfq.settlement_id));
  user.log(`settlement ${rfq.settlement_id} ${settlement?.status} in block ${accepted.height}`);
  return { ...rfq, status: settlement?.status, height: accepted.height };
}

export async function runExample(command: string, o: ExampleOptions): Promise<Json> {
  await checkOneDeployment(o.url, o.rpc);
  const user = await User.open(o);
  try {
    user.log(`as ${o.account} (${user.address}), services at ${o.url}, chain at ${o.rpc}`);
    if (command === 'borrow') return await borrow(user, o);
    if (command === 'repay') return await repay(user);
    if (command === 'sell' || command === 'buy') return await trade(user, o, command);
    throw new Refused(`unknown command "${command}": borrow, repay, sell or buy`);
  } finally {
    user.chain.disconnect();
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      rpc: { type: 'string' },
      asset: { type: 'string', default: 'LNW' },
      account: { type: 'string', default: 'visitor' },
      seed: { type: 'string', default: process.env.DEVNET_SEED ?? 'svc-devnet' },
      amount: { type: 'string' },
    },
  });
  if (values.amount !== undefined && !/^[1-9][0-9]{0,15}$/.test(values.amount))
    throw new Refused('--amount must be a positive whole number of stable units');
  const { url, rpc, from } = endpointsOf(values, process.env);
  if (values.url === undefined || values.rpc === undefined) say(`services and chain from ${from}`);
  await runExample(positionals[0] ?? '', {
    url,
    rpc,
    asset: values.asset!,
    account: values.account!,
    seed: values.seed!,
    amount: values.amount === undefined ? undefined : BigInt(values.amount),
  });
}

if (require.main === module)
  main().catch((e) => {
    // one line, never a stack trace: a refusal's reason, or what failed and why
    process.stderr.write(
      `${e instanceof Refused || e instanceof NotOneDeployment ? e.message : `example failed: ${described(e)}`}\n`,
    );
    process.exit(e instanceof NotOneDeployment ? 2 : 1);
  });
