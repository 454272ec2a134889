/**
 * Prints the devnet's lender and desk keys for a seed as env lines (LENDER_KEY=…, DESK_KEY=…),
 * for the app services run against the compose devnet in services mode (docker/devnet.env).
 * These keys are derived from the public seed: devnet only, never a real chain's keys.
 *
 *   npx ts-node --transpile-only scripts/devnet-keys.ts [seed]   (default: DEVNET_SEED or svc-devnet)
 */
import { bytesToHex } from '../src/lib/bytes';
import { privateKey } from '../devnet/scenario/accounts';

const seed = process.argv[2] ?? process.env.DEVNET_SEED ?? 'svc-devnet';
process.stdout.write(
  `LENDER_KEY=${bytesToHex(privateKey(seed, 'lender'))}\nDESK_KEY=${bytesToHex(privateKey(seed, 'desk'))}\n`,
);
