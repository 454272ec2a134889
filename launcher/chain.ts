/**
 * An external chain (CHAIN_RPC_URL): its CometBFT `status` gives the chain id the node will
 * insist on and the tip /ready compares the index with.
 */
import { ConfigError } from '../src/lib/errors';

export interface ChainStatus {
  chainId: string;
  height: number;
  version: string;
}

const STATUS_TIMEOUT_MS = 5000;

export async function fetchChainStatus(rpcUrl: string): Promise<ChainStatus> {
  const res = await fetch(`${rpcUrl}/status`, { signal: AbortSignal.timeout(STATUS_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`${rpcUrl}/status answered HTTP ${res.status}`);
  const body = (await res.json()) as {
    result?: { node_info?: { network?: string; version?: string }; sync_info?: { latest_block_height?: string } };
  };
  const info = body.result;
  if (!info?.node_info?.network || info.sync_info?.latest_block_height === undefined)
    throw new Error(`${rpcUrl}/status is not a CometBFT status answer`);
  return {
    chainId: info.node_info.network,
    height: Number(info.sync_info.latest_block_height),
    version: info.node_info.version ?? '',
  };
}

/** Waits for the endpoint (it may be starting too); the chain id it reports must equal CHAIN_ID when set. */
export async function resolveExternalChain(
  rpcUrl: string,
  wantedChainId: string | undefined,
  timeoutMs: number,
  onRetry: (error: string) => void,
): Promise<ChainStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const status = await fetchChainStatus(rpcUrl);
      if (wantedChainId !== undefined && status.chainId !== wantedChainId) {
        throw new ConfigError('CHAIN_ID', `is "${wantedChainId}" but ${rpcUrl} reports chain "${status.chainId}"`);
      }
      return status;
    } catch (e) {
      if (e instanceof ConfigError) throw e;
      if (Date.now() > deadline)
        throw new Error(
          `chain RPC ${rpcUrl} not reachable after ${Math.round(timeoutMs / 1000)} s: ${(e as Error).message}`,
        );
      onRetry((e as Error).message);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
