/**
 * The app services' settings table (app-services/settings.ts) and the documentation agree: every
 * row is in docs/app-services.md's tables with the same default and description, and in
 * docs/running.md's table with the same default; no documented app setting is missing from the
 * table. The parser and the defaults are read from the table, so this keeps all four in step.
 */
import fs from 'fs';
import path from 'path';
import { APP_SERVICES_DEFAULTS, APP_SERVICES_VARIABLES, defaultOf, settingRows } from '../../../app-services/config';
import type { AppSetting } from '../../../app-services/settings';

const ROOT = path.resolve(__dirname, '../../..');

/** A document's table rows `| \`NAME\` | default | description |`, by name (the first row of a name). */
function documented(file: string): Map<string, { default: string; description: string }> {
  const out = new Map<string, { default: string; description: string }>();
  for (const m of fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/^\| `([A-Z_0-9]+)` \| (.*?) \| (.*) \|$/gm))
    if (!out.has(m[1])) out.set(m[1], { default: m[2], description: m[3] });
  return out;
}

const rows = settingRows();
const shownDefault = (row: AppSetting) => (row.kind === 'special' ? row.documented : `\`${String(row.default)}\``);
const APP_PREFIX = /^(APP|LENDER|DESK|MARKET|PRICE|RISK|LAUNCHPAD)_/;
/** Named like app settings but not theirs: the client-address rule's older name (src/http/trust-proxy.ts), docker-compose's image and port. */
const NOT_APP_SETTINGS = ['APP_TRUST_PROXY', 'APP_IMAGE', 'APP_PORT'];

describe('the app settings table', () => {
  it('has one row per variable', () => {
    const names = rows.map((r) => r.env);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(APP_SERVICES_VARIABLES).sort()).toEqual([...names].sort());
  });

  it('gives the defaults', () => {
    expect(APP_SERVICES_DEFAULTS.lender.pledgeWindowMs).toBe(120_000);
    expect(APP_SERVICES_DEFAULTS.risk.lossCooloffMs).toBe(86_400_000);
    expect(APP_SERVICES_DEFAULTS.txGas).toBe(2_000_000n);
    for (const row of rows.filter((r) => r.kind !== 'special'))
      expect([row.env, row.min <= row.default && row.default <= row.max]).toEqual([row.env, true]);
    expect(rows.filter((r) => defaultOf(r) === undefined).map((r) => r.env)).toEqual([
      'LENDER_KEY',
      'DESK_KEY',
      'LENDER_FROM_HEIGHT',
    ]);
  });

  it('is docs/app-services.md: every row with its default and description, and nothing more', () => {
    const doc = documented('docs/app-services.md');
    for (const row of rows)
      expect([row.env, doc.get(row.env)]).toEqual([
        row.env,
        { default: shownDefault(row), description: row.description },
      ]);
    const names = new Set(rows.map((r) => r.env));
    const extra = [...doc.keys()].filter((n) => APP_PREFIX.test(n) && !names.has(n) && !NOT_APP_SETTINGS.includes(n));
    expect(extra).toEqual([]);
  });

  it("is docs/running.md's table: every row with its default", () => {
    const doc = documented('docs/running.md');
    for (const row of rows) {
      expect([row.env, doc.has(row.env)]).toEqual([row.env, true]);
      if (row.kind !== 'special') expect([row.env, doc.get(row.env)?.default]).toEqual([row.env, shownDefault(row)]);
    }
    const names = new Set(rows.map((r) => r.env));
    const extra = [...doc.keys()].filter((n) => APP_PREFIX.test(n) && !names.has(n) && !NOT_APP_SETTINGS.includes(n));
    expect(extra).toEqual([]);
  });
});
