/**
 * The boundary between the devnet's chain layer (devnet/chain: blocks, txs,
 * signatures, RPC) and its application (devnet/app: the svc modules' state
 * machine). It mirrors ABCI 2.0 FinalizeBlock closely enough that the chain
 * layer can build CometBFT 0.38 `block_results` from it directly.
 */

/** One ABCI event attribute. Values are strings (typed events: JSON). */
export interface AbciAttribute {
  key: string;
  value: string;
  index?: boolean;
}

export interface AbciEvent {
  type: string;
  attributes: AbciAttribute[];
}

/** A tx message after protobuf decoding: type URL plus proto-JSON value (proto field names). */
export interface TxMessage {
  typeUrl: string;
  value: Record<string, unknown>;
}

/** What the chain layer learnt from the tx envelope before the app runs it. */
export interface TxContext {
  height: number;
  /** block time, unix milliseconds (deterministic: set by the chain layer) */
  timeMs: number;
  txIndex: number;
  /** upper-case hex SHA-256 of the TxRaw bytes (the consensus hash) */
  txHash: string;
  /** bech32 signer addresses in signer-info order */
  signers: string[];
  fee: { denom: string; amount: string }[];
  gasLimit: bigint;
  memo: string;
}

/** Outcome of one tx (ExecTxResult). */
export interface TxResult {
  code: number;
  codespace: string;
  log: string;
  gasWanted: bigint;
  gasUsed: bigint;
  /** message events in order, each with a msg_index attribute (the chain layer prepends the ante events) */
  events: AbciEvent[];
  /** TxMsgData bytes (may be empty) */
  data: Uint8Array;
}

export interface QueryResult {
  code: number;
  codespace: string;
  log: string;
  value: Uint8Array;
  height: number;
}

export interface AccountInfo {
  address: string;
  accountNumber: bigint;
  /** next expected sequence */
  sequence: bigint;
  /** compressed secp256k1 public key, once the account has signed */
  pubKey?: Uint8Array;
}

export type AnteOutcome =
  { ok: true; events: AbciEvent[] } | { ok: false; code: number; codespace: string; log: string };

/** The application the chain layer drives, one block at a time. */
export interface Application {
  /** auth: the account of an address (created when it first receives coins or signs), at the latest committed state plus the current block */
  account(address: string): AccountInfo | undefined;
  /**
   * DeliverTx ante, after the chain layer verified signatures: deducts the fee
   * from the first signer (sdk/5 when short; nothing changes then), bumps
   * every signer's sequence, stores pubkeys. Events: `tx` (fee, acc_seq,
   * signature) and `coin_spent`/`coin_received`/`transfer` of the fee.
   */
  ante(ctx: TxContext, signerPubKeys: Uint8Array[]): AnteOutcome;
  /** BeginBlock phase; returned events get attribute mode=BeginBlock. */
  beginBlock(height: number, timeMs: number): AbciEvent[];
  /** Runs the messages atomically after a successful ante: all state changes, or none (code != 0, events dropped). */
  deliverTx(ctx: TxContext, messages: TxMessage[]): TxResult;
  /** Runs the messages on a throwaway branch for a gas estimate (Simulate); optional: without it the chain serves no Simulate. */
  simulate?(ctx: TxContext, messages: TxMessage[]): TxResult;
  /** EndBlock phase (expiry sweeps); returned events get attribute mode=EndBlock. */
  endBlock(height: number, timeMs: number): AbciEvent[];
  /** Commits the block's state and returns the app hash for the next header. */
  commit(height: number): Uint8Array;
  /** abci_query: `path` is `/svc.<module>.v1.Query/<Method>`, data the protobuf request; height 0 = latest. */
  query(path: string, data: Uint8Array, height: number): QueryResult;
  /** application version string served by abci_info (e.g. "0.12.2", or "0.8.3" for the old-chain mode) */
  readonly version: string;
}
