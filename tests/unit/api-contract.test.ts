/**
 * openapi.yaml and app-services/openapi.yaml are the one source of the HTTP shapes: the
 * TypeScript types generated from them (scripts/gen-api-types.js) and docs/api-choices.md
 * (scripts/gen-api-choices.js, from their `x-design-choices`) are committed and must be fresh.
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import path from 'path';

/* eslint-disable @typescript-eslint/no-require-imports -- the generators are CommonJS scripts */
const { targets, root } = require('../../scripts/gen-api-types.js');
const { buildApiChoices, outFile } = require('../../scripts/gen-api-choices.js');
/* eslint-enable @typescript-eslint/no-require-imports */

describe('generated from the OpenAPI documents', () => {
  it.each(targets as { source: string; out: string }[])(
    '$out is fresh (npm run gen:api-types)',
    ({ source, out }) => {
      const committed = fs.readFileSync(path.join(root, out), 'utf8');
      const fresh = execFileSync(process.execPath, ['scripts/gen-api-types.js', '--print', source], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(committed === fresh).toBe(true);
    },
    60_000,
  );

  it('docs/api-choices.md is fresh (npm run gen:api-choices)', () => {
    expect(fs.readFileSync(outFile, 'utf8')).toBe(buildApiChoices());
  });
});
