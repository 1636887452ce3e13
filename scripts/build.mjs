// Bundles the extension, its workers and the CLI with esbuild, one bundle per entry, each with only what it imports.
// `--watch` rebuilds on change. Each bundle's esbuild metafile goes to out/bundles/<name>.meta.json, and one line per
// bundle gives its size (test/unit/packaging/bundles.test.ts checks what dist/extension.js may hold).
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { writeToolManifest } from './tool-manifest.mjs';
import { requireSource } from './require-source.mjs';

import * as os from 'node:os';
import * as path from 'node:path';

const require = createRequire(import.meta.url);

// The tokenizer's rank tables (3.3 MB) ship once, as dist/ranks/<encoding>.js, and each bundle that counts requires
// the one it needs when it first counts (tokens.ts loads them lazily): no bundle carries a copy.
const RANKS = ['o200k_base', 'cl100k_base'];
const ranksApart = {
  name: 'ranks-apart',
  setup(build) {
    build.onResolve({ filter: /^js-tiktoken\/ranks\/[a-z0-9_]+$/ }, (args) => ({ path: `./ranks/${args.path.split('/').pop()}.js`, external: true }));
  },
};
function copyRanks() {
  fs.mkdirSync('dist/ranks', { recursive: true });
  for (const r of RANKS) {
    fs.copyFileSync(`node_modules/js-tiktoken/dist/ranks/${r}.cjs`, `dist/ranks/${r}.js`);
    writeRankFile(r);
  }
}

// The same ranks as bytes (src/core/rank-file.ts reads them): every token's bytes in rank order, each after its
// length, and the split pattern and special tokens beside them. Loading them needs no base64 and no parse of a
// 2.3 MB module.
function writeRankFile(name) {
  const source = require(`js-tiktoken/ranks/${name}`);
  const ranks = source.default ?? source;
  const tokens = [];
  for (const line of ranks.bpe_ranks.split('\n')) {
    if (!line) continue;
    const parts = line.split(' ');
    let rank = Number.parseInt(parts[1], 10);
    for (let i = 2; i < parts.length; i++) tokens[rank++] = Buffer.from(parts[i], 'base64');
  }
  const parts = [];
  for (let rank = 0; rank < tokens.length; rank++) {
    const bytes = tokens[rank] ?? Buffer.alloc(0);
    if (bytes.length > 255) throw new Error(`${name}: token ${rank} is ${bytes.length} bytes, more than a rank file holds`);
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  const bin = Buffer.concat(parts);
  // The table's hash slots, as rank-table.ts makes them, so a run reads them instead of hashing every token.
  const index = rankFileModule().rankIndex(bin);
  fs.writeFileSync(`dist/ranks/${name}.bin`, bin);
  if (index) fs.writeFileSync(`dist/ranks/${name}.index`, index.bytes);
  else fs.rmSync(`dist/ranks/${name}.index`, { force: true });
  fs.writeFileSync(`dist/ranks/${name}.json`, JSON.stringify({ pat_str: ranks.pat_str, special_tokens: ranks.special_tokens, tokens: tokens.length, ...(index ? { index: index.meta } : {}) }));
}

// src/core/rank-file.ts, bundled for this script (the same code that reads the files).
let rankFile;
const rankFileModule = () => (rankFile ??= requireSource('src/core/rank-file.ts'));

// The provider SDKs and the MCP SDK (with zod) are bundled apart, as dist/vendor/<name>.js, and required only when
// used (src/vendor/load.ts): the CLI and the workers start without parsing 2.7 MB they rarely need.
const VENDOR = ['anthropic', 'openai', 'mcp'];
const vendorApart = {
  name: 'vendor-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/(?:anthropic|openai|mcp)$/ }, (args) =>
      args.importer.endsWith('src/vendor/load.ts') ? { path: `./vendor/${args.path.slice(2)}.js`, external: true } : undefined,
    );
  },
};

// jsonc-parser's UMD build requires its parts at run time, which a bundle cannot follow: bundle its ESM build.
// js-yaml is gray-matter's default YAML engine, never called (front matter goes to `yaml`): a module that refuses
// stands in for it, so no bundle carries a second YAML parser (src/vendor/js-yaml-refused.ts).
const alias = { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js', 'js-yaml': './src/vendor/js-yaml-refused.ts' };
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning', metafile: true, plugins: [ranksApart, vendorApart], alias };
const targets = {
  // The extension host: views, commands, state. No chain, no tokenizer, no provider SDK (they run in the workers).
  extension: { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The session commands, loaded on their first use (src/vscode/lazy-commands.ts).
  'session-host': { ...common, entryPoints: ['src/vscode/session-host.ts'], outfile: 'dist/session-host.js', external: ['vscode'] },
  // The CLI: its bundle, and dist/cli.js, which loads the bundle with the code cache made below (src/cli/load.ts).
  'cli-main': { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli-main.js' },
  cli: { ...common, entryPoints: ['src/cli/load.ts'], outfile: 'dist/cli.js' },
  // The gateway's record worker (src/cli/gateway-recorder.ts starts it beside the CLI's bundle).
  'gateway-worker': { ...common, entryPoints: ['src/cli/gateway-worker.ts'], outfile: 'dist/gateway-worker.js' },
  'assemble-worker': { ...common, entryPoints: ['src/vscode/worker/assemble-worker.ts'], outfile: 'dist/assemble-worker.js' },
  'send-worker': { ...common, entryPoints: ['src/vscode/worker/send-worker.ts'], outfile: 'dist/send-worker.js' },
  ...Object.fromEntries(VENDOR.map((v) => [`vendor/${v}`, { ...common, entryPoints: [`src/vendor/${v}.ts`], outfile: `dist/vendor/${v}.js` }])),
  webview: { bundle: true, platform: 'browser', target: 'es2022', format: 'iife', sourcemap: true, logLevel: 'warning', metafile: true, entryPoints: ['src/webview/panel.ts'], outfile: 'dist/webview.js' },
};

function report(name, result) {
  fs.mkdirSync('out/bundles', { recursive: true });
  fs.writeFileSync(`out/bundles/${name.replace("/", "-")}.meta.json`, JSON.stringify(result.metafile));
  const out = result.metafile.outputs[targets[name].outfile];
  if (process.argv.includes('--sizes')) console.log(`${targets[name].outfile}: ${(out.bytes / 1024).toFixed(0)} KiB`);
}

// The tools' schemas and package.json's languageModelTools, from src/core/tool-registry.ts, before any bundle reads them.
await writeToolManifest();
copyRanks();
if (process.argv.includes('--watch')) {
  for (const t of Object.values(targets)) await (await esbuild.context(t)).watch();
} else {
  const names = Object.keys(targets);
  const results = await Promise.all(names.map((n) => esbuild.build(targets[n])));
  names.forEach((n, i) => report(n, results[i]));
  cacheCli();
}

// V8's code cache of the CLI's bundle (src/cli/load.ts reads it): made in a fresh node after one preview of the
// bundled example, so it holds the bundle and every function that run compiled. It starts with the SHA-256 of the
// bundle and of the whole data (src/cli/load.ts checks both before V8 sees it). Without it the CLI still runs, compiling as it goes.
function cacheCli() {
  const cache = 'dist/cli-main.js.cache';
  fs.rmSync(cache, { force: true });
  const warm = `const cli = require('./dist/cli.js');
const ex = 'examples/payment-incident';
Promise.resolve(cli.run(['preview', '--workspace', ex, '--task', ex + '/ticket.md'], { stdout() {}, stderr(s) { process.stderr.write(s); } })).then((code) => {
  if (code !== 0) throw new Error('the warm-up preview exited with ' + code);
  cli.saveCache();
});`;
  // Cold (the relevance index built, not read from a kept one), so that code is cached too; nothing kept afterwards.
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-build-cache-'));
  const r = spawnSync(process.execPath, ['-e', warm], { encoding: 'utf8', env: { ...process.env, CTXCTL_CACHE_DIR: cacheDir } });
  fs.rmSync(cacheDir, { recursive: true, force: true });
  if (r.status !== 0) console.warn(`dist/cli-main.js has no code cache (the CLI compiles as it runs): ${(r.stderr || '').trim().split('\n').slice(-3).join(' ')}`);
}
