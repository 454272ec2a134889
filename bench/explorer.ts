/**
 * `npm run bench:explorer -- --url http://127.0.0.1:3000`: the explorer in Debian's chromium
 * (tests/harness/browser.ts) against a running npm start: first render (navigation timing), a
 * live block arriving over /v1/stream, search to a tx, every main page rendered with no error
 * and no console error; screenshots written to docs/explorer/ (docs/explorer.md shows them).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- answers are read field by field */
import path from 'path';
import { openBrowser } from '../tests/harness/browser';

const i = process.argv.indexOf('--url');
const base = (i > 0 ? process.argv[i + 1] : 'http://127.0.0.1:3000').replace(/\/+$/, '');
const shots = path.join(__dirname, '..', 'docs', 'explorer');
const keep = new Set(['home', 'tx', 'asset', 'account', 'desk', 'launchpad']);
(async () => {
  for (let i = 0; i < 120; i++) {
    const r = await fetch(base + '/ready').catch(() => undefined);
    if (r?.status === 200) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const tx = ((await (await fetch(base + '/v1/txs?limit=1')).json()) as any).txs[0];
  const asset = ((await (await fetch(base + '/v1/assets?limit=1')).json()) as any).assets[0];
  const b = await openBrowser();
  const t0 = Date.now();
  await b.page.goto(base + '/');
  await b.page.waitForSelector('[data-testid=block-rows] tr[data-height]');
  const nav = await b.page.evaluate(() => ({
    mark: performance.getEntriesByName('explorer-rendered')[0]?.startTime,
    now: performance.now(),
  }));
  console.log(
    'home: shell rendered at',
    Math.round(nav.mark ?? -1),
    'ms, blocks shown at',
    Math.round(nav.now),
    'ms; wall',
    Date.now() - t0,
  );
  const top = Number(await b.page.getAttribute('[data-testid=block-rows] tr[data-height]', 'data-height'));
  await b.page.waitForSelector(`[data-testid=block-rows] tr[data-height="${top + 1}"]`, { timeout: 10000 }).then(
    () => console.log('live block', top + 1, 'appeared'),
    (e) => console.log('no live block', e.message),
  );
  await b.page.screenshot({ path: path.join(shots, 'home.png') });
  await b.page.fill('input[name=q]', tx.hash);
  await b.page.press('input[name=q]', 'Enter');
  await b.page.waitForURL(`**/#/tx/${tx.hash}`, { timeout: 10000 }).then(
    () => console.log('search tx ok'),
    () => console.log('search tx FAILED', b.page.url()),
  );
  await b.page.waitForSelector('h2:has-text("Messages")');
  await b.page.screenshot({ path: path.join(shots, 'tx.png'), fullPage: false });
  for (const [name, route, sel] of [
    ['asset', `#/asset/${asset.id}`, '[data-testid=holder-rows]'],
    ['account', `#/account/${asset.issuer}`, '[data-testid=positions]'],
    ['desk', '#/desk', '[data-testid=quotes]'],
    ['lender', '#/lender', '[data-testid=capacity]'],
    ['launchpad', '#/launchpad', 'form'],
    ['bridge', '#/bridge', '[data-testid=routes]'],
    ['invariants', '#/invariants', '[data-testid=checks]'],
    ['settlements', '#/settlements', '[data-testid=settlement-rows]'],
    ['blocks', '#/blocks', '[data-testid=block-rows]'],
  ]) {
    await b.page.goto(base + '/' + route);
    await b.page.waitForSelector(sel, { timeout: 10000 }).then(
      () => console.log(name, 'ok'),
      () => console.log(name, 'FAILED'),
    );
    const err = await b.page.$$eval('.error', (els) => els.map((e) => e.textContent));
    if (err.length) console.log(name, 'errors shown:', err);
    if (keep.has(name)) await b.page.screenshot({ path: path.join(shots, `${name}.png`) });
  }
  console.log('console errors:', b.errors);
  if (b.errors.length) process.exitCode = 1;
  await b.close();
})();
