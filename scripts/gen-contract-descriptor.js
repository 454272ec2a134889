#!/usr/bin/env node
// Compiles every file under proto/ with protobufjs (proto field names kept)
// into src/lib/contract/descriptor.json, the bundle-safe form of the chain
// contract that mappings, devnet and services load with Root.fromJSON.
// `--check` exits 1 when the committed descriptor is stale.
'use strict';
const fs = require('fs');
const path = require('path');
const protobuf = require('protobufjs');

const protoDir = path.join(__dirname, '..', 'proto');
const outFile = path.join(__dirname, '..', 'src', 'lib', 'contract', 'descriptor.json');

/** Every .proto file under dir, as paths relative to proto/, sorted. */
function protoFiles(dir) {
  const walk = (d) =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(d, e.name);
      return e.isDirectory() ? walk(full) : e.name.endsWith('.proto') ? [full] : [];
    });
  return walk(dir)
    .map((f) => path.relative(protoDir, f))
    .sort();
}

function buildDescriptor() {
  const root = new protobuf.Root();
  // imports are relative to proto/, as protoc -I proto would resolve them
  root.resolvePath = (_origin, target) => (target.startsWith(protoDir) ? target : path.join(protoDir, target));
  root.loadSync(
    protoFiles(protoDir).map((f) => path.join(protoDir, f)),
    { keepCase: true },
  );
  root.resolveAll();
  return JSON.stringify(root.toJSON({ keepComments: false }), null, 1) + '\n';
}

module.exports = { buildDescriptor, protoFiles, protoDir, outFile };

if (require.main === module) {
  const fresh = buildDescriptor();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
    if (current !== fresh) {
      console.error('src/lib/contract/descriptor.json is stale: run `node scripts/gen-contract-descriptor.js`');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(outFile, fresh);
    console.log(`wrote ${path.relative(process.cwd(), outFile)} from ${protoFiles(protoDir).length} proto files`);
  }
}
