#!/usr/bin/env node
// Runs a command and shows its output only when it fails: for steps of `npm run lint` whose
// tools print notices that are not problems of this project (subql codegen's "NOT FOUND … you
// should contact the maintainers" for the SDK's own tx service protos, a duplicate
// @polkadot/util warning from its dependencies). A failure prints everything and its code.
'use strict';
const { spawnSync } = require('child_process');

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node scripts/quiet.js <command> [args…]\n');
  process.exit(2);
}
const r = spawnSync(command, args, { encoding: 'utf8', shell: false, maxBuffer: 64 * 1024 * 1024 });
if (r.error) {
  process.stderr.write(`${command}: ${r.error.message}\n`);
  process.exit(1);
}
if (r.status !== 0) {
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  process.stderr.write(`${command} ${args.join(' ')} exited with ${r.status ?? r.signal}\n`);
}
process.exit(r.status ?? 1);
