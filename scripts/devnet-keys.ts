/**
 * Prints, as env lines, what the app services need to act against the compose devnet in
 * services mode (docker/devnet.env): the devnet's lender and desk keys for a seed
 * (LENDER_KEY=…, DESK_KEY=…) and its scenario's releaser account, which `npm start` trusts on
 * its embedded devnet (MARKET_TRUSTED_RELEASERS=…). The keys are derived from the public seed:
 * devnet only, never a real chain's keys.
 *
 *   npx ts-node --transpile-only scripts/devnet-keys.ts [seed]   (default: DEVNET_SEED or svc-devnet)
 */
import { bytesToHex } from '../src/lib/bytes';
import { privateKey } from '../devnet/scenario/accounts';
import { devnetAddress } from '../src/runtime/app-services';

const seed = process.argv[2] ?? process.env.DEVNET_SEED ?? 'svc-devnet';
process.stdout.write(
  [
    `LENDER_KEY=${bytesToHex(privateKey(seed, 'lender'))}`,
    `DESK_KEY=${bytesToHex(privateKey(seed, 'desk'))}`,
    `MARKET_TRUSTED_RELEASERS=${devnetAddress(seed, 'releaser', 'svc')}`,
    '',
  ].join('\n'),
);
