#!/usr/bin/env node
// Generates TypeScript types from the OpenAPI documents with openapi-typescript:
//   openapi.yaml              -> rest-adapter/openapi.generated.ts   (/v1)
//   app-services/openapi.yaml -> app-services/openapi.generated.ts   (/api)
// Presenters declare their return types from these, so `tsc` fails when a presenter and the
// contract disagree. `--check` exits 1 when a committed file is stale; `--print <source>` writes
// one generated text to stdout (tests/unit/api-contract.test.ts compares it with the file: the
// generator is ESM inside, which jest does not load).
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const targets = [
  { source: 'openapi.yaml', out: 'rest-adapter/openapi.generated.ts' },
  { source: 'app-services/openapi.yaml', out: 'app-services/openapi.generated.ts' },
];

/** The generated text for one OpenAPI document (a path relative to the repository). */
async function buildApiTypes(source) {
  const { default: openapiTS, astToString } = require('openapi-typescript');
  // an object schema without properties is an open object (docs/api-choices.md, open-objects): any fields
  const ast = await openapiTS(fs.readFileSync(path.join(root, source), 'utf8'), { emptyObjectsUnknown: true });
  const header =
    `// Generated from ${source} by \`npm run gen:api-types\` (openapi-typescript). Do not edit:\n` +
    `// change ${source} and run the script; tests/unit/api-contract.test.ts checks it is fresh.\n\n`;
  return header + astToString(ast);
}

module.exports = { buildApiTypes, targets, root };

if (require.main === module) {
  const check = process.argv.includes('--check');
  const print = process.argv.indexOf('--print');
  (async () => {
    if (print >= 0) {
      process.stdout.write(await buildApiTypes(process.argv[print + 1]));
      return;
    }
    let stale = 0;
    for (const { source, out } of targets) {
      const text = await buildApiTypes(source);
      const file = path.join(root, out);
      if (check) {
        const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
        if (current !== text) {
          stale++;
          console.error(`${out} is stale: run npm run gen:api-types`);
        }
      } else {
        fs.writeFileSync(file, text);
        console.log(`${out} <- ${source}`);
      }
    }
    if (stale) process.exitCode = 1;
  })().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
