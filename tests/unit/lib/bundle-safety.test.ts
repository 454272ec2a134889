/**
 * src/lib is bundled into the SubQuery mapping sandbox (vm2 NodeVM without TextEncoder,
 * no fs/net). This guards the rule statically: only the allowed packages are imported,
 * and no Node-only API is referenced.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const LIB = path.join(__dirname, '../../../src/lib');
const files = fs.readdirSync(LIB).filter((f) => f.endsWith('.ts'));
const ALLOWED_IMPORTS = [/^\.\//, /^bech32$/, /^@noble\/hashes\/(sha2|sha256|sha3|utils)$/];
const FORBIDDEN = [
  /\bprocess\./,
  /\bTextEncoder\b/,
  /\bTextDecoder\b/,
  /\brequire\(/,
  /\bBuffer\./,
  /\bnew Buffer\b/,
  /\bfetch\(/,
];

describe('src/lib bundle safety', () => {
  it('has the expected modules', () => {
    for (const f of [
      'ids.ts',
      'address.ts',
      'amount.ts',
      'accrual.ts',
      'typed-event.ts',
      'cursor.ts',
      'config.ts',
      'errors.ts',
      'index.ts',
    ]) {
      expect(files).toContain(f);
    }
  });

  it.each(files)('%s imports only allowed modules and no Node-only APIs', (f) => {
    const src = fs.readFileSync(path.join(LIB, f), 'utf8');
    const imports = [...src.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
    for (const spec of imports)
      expect(ALLOWED_IMPORTS.some((re) => re.test(spec)) ? spec : `forbidden import ${spec}`).toBe(spec);
    const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, ''); // ignore comments
    for (const re of FORBIDDEN) expect(re.test(code) ? `${f} uses ${re}` : 'ok').toBe('ok');
  });
});
