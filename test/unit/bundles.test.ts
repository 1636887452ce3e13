import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from './helpers';

/** What scripts/build.mjs recorded of a bundle: its inputs (esbuild metafile) and its size on disk. */
function bundle(name: string): { inputs: string[]; bytes: number } {
  const meta = JSON.parse(fs.readFileSync(path.join(REPO, 'out', 'bundles', `${name.replace('/', '-')}.meta.json`), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown>; bytes: number }> };
  const out = meta.outputs[`dist/${name}.js`];
  assert.ok(out, `the metafile of ${name} describes dist/${name}.js`);
  return { inputs: Object.keys(out.inputs), bytes: fs.statSync(path.join(REPO, 'dist', `${name}.js`)).size };
}

/** Inputs no bundle loaded by the extension host at activation may hold: rank tables, provider SDKs, the chain. */
const HEAVY = [/js-tiktoken\/.*ranks/, /node_modules\/openai\//, /node_modules\/@anthropic-ai\/sdk\//, /^src\/core\/chain\//, /^src\/core\/tokens\.ts$/];

describe('bundles: a small, lazy extension', () => {
  it('dist/extension.js is at most 1 MB', () => {
    const { bytes } = bundle('extension');
    assert.ok(bytes <= 1024 * 1024, `dist/extension.js is ${bytes} bytes`);
  });

  it('dist/extension.js holds no rank table, no provider SDK, no chain and no tokenizer', () => {
    const { inputs } = bundle('extension');
    assert.ok(inputs.includes('src/vscode/extension.ts'), 'the metafile lists the entry');
    assert.deepEqual(inputs.filter((f) => HEAVY.some((re) => re.test(f))), []);
  });

  it('the rank tables are in no bundle: each is required from dist/ranks when first counted', () => {
    for (const name of ['extension', 'session-host', 'cli-main', 'assemble-worker', 'send-worker']) {
      assert.deepEqual(bundle(name).inputs.filter((f) => /js-tiktoken\/.*ranks/.test(f)), [], name);
    }
    const worker = fs.readFileSync(path.join(REPO, 'dist', 'assemble-worker.js'), 'utf8');
    assert.match(worker, /require\("\.\/ranks\/o200k_base\.js"\)/);
  });

  it('the SDKs are in their own bundles, required when first used: no worker and not the CLI carries one', () => {
    const sdk = (name: string) => bundle(name).inputs.filter((f) => /node_modules\/(openai|@anthropic-ai\/sdk|@modelcontextprotocol\/sdk|zod)\//.test(f)).length;
    for (const name of ['assemble-worker', 'send-worker', 'session-host', 'cli-main']) assert.equal(sdk(name), 0, name);
    assert.ok(bundle('vendor/anthropic').inputs.some((f) => f.includes('node_modules/@anthropic-ai/sdk/')));
    assert.ok(bundle('vendor/openai').inputs.some((f) => f.includes('node_modules/openai/')));
    assert.ok(bundle('vendor/mcp').inputs.some((f) => f.includes('node_modules/@modelcontextprotocol/sdk/')));
    for (const name of ['send-worker', 'cli-main']) {
      const text = fs.readFileSync(path.join(REPO, 'dist', `${name}.js`), 'utf8');
      assert.match(text, /require\("\.\/vendor\/anthropic\.js"\)/, name);
      assert.match(text, /require\("\.\/vendor\/openai\.js"\)/, name);
    }
  });

  it('the CLI is at most 2 MB: the SDKs it rarely needs are not parsed when it starts', () => {
    assert.ok(bundle('cli-main').bytes <= 2 * 1024 * 1024, `dist/cli-main.js is ${bundle('cli-main').bytes} bytes`);
    // dist/cli.js only loads it (src/cli/load.ts): no part of the core.
    assert.deepEqual(bundle('cli').inputs, ['src/cli/load.ts']);
  });
});
