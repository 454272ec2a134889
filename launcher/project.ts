/**
 * docker-compose.yml's `project` service: `ts-node launcher/project.ts <dir>` fills the volume
 * the official node image runs (-f), with CHAIN_ID / CHAIN_RPC_URL / PROOF_OF_INDEXING from the environment.
 */
import { proofEnabled } from '../src/lib/proof';
import { writeProjectCopy } from '../src/runtime/project';

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write(
      'usage: ts-node launcher/project.ts <output dir>   (CHAIN_ID, CHAIN_RPC_URL, PROOF_OF_INDEXING: optional)\n',
    );
    process.exit(2);
  }
  let proofOfIndexing: boolean;
  try {
    proofOfIndexing = proofEnabled(process.env);
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  writeProjectCopy(
    dir,
    { chainId: process.env.CHAIN_ID || undefined, endpoint: process.env.CHAIN_RPC_URL || undefined },
    { proofOfIndexing },
  );
  process.stdout.write(`project copied to ${dir}${process.env.CHAIN_ID ? ` for chain ${process.env.CHAIN_ID}` : ''}\n`);
}
