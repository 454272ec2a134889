/**
 * The settings tables (src/lib/settings.ts) and the documentation agree. npm start's table in
 * docs/running.md holds every row of npm start's tables with the same default, and the same
 * description where that document is the row's own (the app services' rows are described in
 * docs/app-services.md, whose tables hold every app row with its default and description); no
 * variable is documented there that no table has. docs/rest-adapter.md's table holds every row of
 * the rest-adapter process with its default. The parsers and the defaults are read from the same
 * rows, so this keeps all of them in step.
 */
import fs from 'fs';
import path from 'path';
import { APP_SERVICES_DEFAULTS, APP_SERVICES_VARIABLES } from '../../../app-services/config';
import { APP_SETTINGS } from '../../../app-services/settings';
import { RECONCILER_SETTINGS } from '../../../reconciler/config';
import { REST_SETTINGS, SHARED_REST_SETTINGS } from '../../../rest-adapter/config';
import { FAIR_SHARE_SETTINGS } from '../../../src/http/fair-share-settings';
import { TRUST_PROXY_SETTINGS } from '../../../src/http/trust-proxy';
import { defaultOf, documentedDefault, settingRows, type Setting } from '../../../src/lib/settings';
import { CONFIG_VARIABLES } from '../../../src/runtime/config';
import { START_SETTINGS } from '../../../src/runtime/settings';

const ROOT = path.resolve(__dirname, '../../..');

type Documented = Map<string, { default: string; description: string }>;

/** A document's table rows `| \`NAME\` | default | description |` (under `heading` only, when given), by name; the first of a name. */
function documented(file: string, heading?: string): Documented {
  let text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  if (heading !== undefined) {
    const start = text.indexOf(`\n${heading}\n`);
    expect([heading, start >= 0]).toEqual([heading, true]);
    const end = text.indexOf('\n#', start + heading.length + 2);
    text = text.slice(start, end === -1 ? undefined : end);
  }
  const out: Documented = new Map();
  for (const m of text.matchAll(/^\| `([A-Z_0-9]+)` \| (.*?) \| (.*) \|$/gm))
    if (!out.has(m[1])) out.set(m[1], { default: m[2], description: m[3] });
  return out;
}

const appRows = settingRows(APP_SETTINGS);
/** npm start's rows described in docs/running.md itself. */
const runningRows = [
  ...settingRows(START_SETTINGS),
  ...settingRows(TRUST_PROXY_SETTINGS),
  ...settingRows(FAIR_SHARE_SETTINGS),
  ...settingRows(SHARED_REST_SETTINGS),
  ...settingRows(RECONCILER_SETTINGS),
];

const expectRow = (doc: Documented, row: Setting, withDescription: boolean) =>
  expect([row.env, doc.get(row.env)]).toEqual([
    row.env,
    withDescription
      ? { default: documentedDefault(row), description: row.description }
      : expect.objectContaining({ default: documentedDefault(row) }),
  ]);

describe('the settings tables', () => {
  it('have one row per variable, each default within its bounds', () => {
    const names = [...runningRows, ...appRows].map((r) => r.env);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(CONFIG_VARIABLES).sort()).toEqual([...names].sort());
    for (const row of [...runningRows, ...appRows, ...settingRows(REST_SETTINGS)])
      if (row.kind === 'integer' || row.kind === 'seconds' || row.kind === 'decimal' || row.kind === 'bigint')
        expect([row.env, row.min <= row.default && row.default <= row.max]).toEqual([row.env, true]);
  });

  it('give the defaults', () => {
    expect(APP_SERVICES_DEFAULTS.lender.pledgeWindowMs).toBe(120_000);
    expect(APP_SERVICES_DEFAULTS.risk.lossCooloffMs).toBe(86_400_000);
    expect(APP_SERVICES_DEFAULTS.txGas).toBe(2_000_000n);
    expect(Object.keys(APP_SERVICES_VARIABLES).sort()).toEqual(appRows.map((r) => r.env).sort());
    expect(appRows.filter((r) => defaultOf(r) === undefined).map((r) => r.env)).toEqual([
      'LENDER_KEY',
      'DESK_KEY',
      'LENDER_FROM_HEIGHT',
      'DESK_FROM_HEIGHT',
      'WEBHOOKS_FILE',
      'WEBHOOK_SECRET_KEY',
      'RISK_LISTED_ASSETS',
    ]);
  });

  it("are docs/running.md's configuration table: every row with its default (and its description), nothing more", () => {
    const doc = documented('docs/running.md', '### Configuration');
    for (const row of runningRows) expectRow(doc, row, true);
    // app rows: described in docs/app-services.md; a special default is worded for its reader there
    for (const row of appRows)
      if (row.kind === 'special') expect([row.env, doc.has(row.env)]).toEqual([row.env, true]);
      else expectRow(doc, row, false);
    const names = new Set([...runningRows, ...appRows].map((r) => r.env));
    expect([...doc.keys()].filter((n) => !names.has(n))).toEqual([]);
  });

  it("are docs/app-services.md's tables: every app row with its default and description", () => {
    const doc = documented('docs/app-services.md');
    for (const row of appRows) expectRow(doc, row, true);
  });

  it("are docs/rest-adapter.md's configuration table: every row of the rest-adapter process with its default", () => {
    const doc = documented('docs/rest-adapter.md', '## Configuration (environment)');
    for (const row of [...settingRows(REST_SETTINGS), ...settingRows(FAIR_SHARE_SETTINGS)])
      expect([row.env, doc.get(row.env)?.default]).toEqual([
        row.env,
        row.kind === 'special' ? expect.any(String) : documentedDefault(row),
      ]);
  });
});
