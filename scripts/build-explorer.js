#!/usr/bin/env node
// Bundles the explorer (explorer/src, TypeScript + Preact + uPlot) with esbuild into
// explorer/dist/: app-<hash>.js, app-<hash>.css and index.html naming them. Run by `npm run build`;
// `npm start` builds it too when explorer/dist is missing or older than its sources.
// `--check-size` prints the gzipped size and exits 1 above the budget (200 KB).
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const root = path.join(__dirname, '..');
const srcDir = path.join(root, 'explorer', 'src');
const outDir = path.join(root, 'explorer', 'dist');
const BUDGET_GZ_BYTES = 200 * 1024;

/** Newest mtime of the explorer's sources (its own files and the generated API types it reads). */
function sourcesMtime() {
  const files = [
    path.join(root, 'explorer', 'index.html'),
    path.join(root, 'rest-adapter', 'openapi.generated.ts'),
    path.join(root, 'app-services', 'openapi.generated.ts'),
  ];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(srcDir);
  return Math.max(...files.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)));
}

function explorerIsStale() {
  const index = path.join(outDir, 'index.html');
  return !fs.existsSync(index) || fs.statSync(index).mtimeMs < sourcesMtime();
}

/** Bundles and writes explorer/dist; returns the files written with their raw and gzipped sizes. */
async function buildExplorer() {
  const esbuild = require('esbuild');
  const result = await esbuild.build({
    entryPoints: { app: path.join(srcDir, 'main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    outdir: outDir,
    metafile: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const files = [];
  for (const f of result.outputFiles) {
    fs.writeFileSync(f.path, f.contents);
    files.push({ name: path.basename(f.path), bytes: f.contents.length, gz: zlib.gzipSync(f.contents).length });
  }
  const js = files.find((f) => f.name.endsWith('.js'));
  const css = files.find((f) => f.name.endsWith('.css'));
  const html = fs
    .readFileSync(path.join(root, 'explorer', 'index.html'), 'utf8')
    .replace('%APP_JS%', `/explorer/${js.name}`)
    .replace('%APP_CSS%', css ? `/explorer/${css.name}` : '');
  fs.writeFileSync(path.join(outDir, 'index.html'), html);
  const htmlBytes = Buffer.from(html);
  files.push({ name: 'index.html', bytes: htmlBytes.length, gz: zlib.gzipSync(htmlBytes).length });
  return { files, gz: files.reduce((n, f) => n + f.gz, 0), budget: BUDGET_GZ_BYTES };
}

module.exports = { buildExplorer, explorerIsStale, outDir, BUDGET_GZ_BYTES };

if (require.main === module) {
  buildExplorer()
    .then(({ files, gz, budget }) => {
      for (const f of files) console.log(`explorer/dist/${f.name}  ${f.bytes} B, ${f.gz} B gzipped`);
      console.log(`explorer bundle: ${(gz / 1024).toFixed(1)} KB gzipped (budget ${budget / 1024} KB)`);
      if (process.argv.includes('--check-size') && gz > budget) process.exitCode = 1;
    })
    .catch((e) => {
      console.error(e.message ?? e);
      process.exit(1);
    });
}
