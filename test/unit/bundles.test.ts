import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { spawnSync } from 'node:child_process';
import * as refusedYaml from '../../src/vendor/js-yaml-refused';
import { REPO } from './helpers';

const EXAMPLE_DIR = path.join(REPO, 'examples', 'payment-incident');

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

  it('one YAML parser: no bundle carries js-yaml, gray-matter gets the module that refuses in its place', () => {
    for (const name of ['extension', 'session-host', 'cli-main', 'gateway-worker', 'assemble-worker', 'send-worker']) {
      const { inputs } = bundle(name);
      assert.deepEqual(inputs.filter((f) => f.includes('node_modules/js-yaml/')), [], name);
      if (inputs.some((f) => f.includes('node_modules/gray-matter/'))) assert.ok(inputs.includes('src/vendor/js-yaml-refused.ts'), name);
      assert.ok(inputs.some((f) => f.includes('node_modules/yaml/')), `${name} carries yaml`);
    }
    // gray-matter binds the two functions when it loads; either one called says which engine was not replaced.
    assert.throws(() => refusedYaml.safeLoad(), { message: 'js-yaml.safeLoad was called, but js-yaml is not bundled: YAML is parsed with the yaml package (src/core/sources/frontmatter.ts)' });
    assert.throws(() => refusedYaml.safeDump(), { message: 'js-yaml.safeDump was called, but js-yaml is not bundled: YAML is parsed with the yaml package (src/core/sources/frontmatter.ts)' });
  });

  it('front matter still parses in a bundle: the CLI reads the example ADRs\' status and component', () => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'preview', '--workspace', EXAMPLE_DIR, '--task', path.join(EXAMPLE_DIR, 'ticket.md'), '--no-git'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\n {2}docs\/adr\/adr-012-optional-fields-at-http-boundary\.md SELECTED .*applicable decision \(accepted\); relevant: component payment \(front matter\)/);
    assert.match(r.stdout, /\n {2}docs\/adr\/adr-008-payment-method-mandatory\.md REJECTED {2}superseded by ADR-012\n/);
  });

  it('the CLI is at most 2 MB: the SDKs it rarely needs are not parsed when it starts', () => {
    assert.ok(bundle('cli-main').bytes <= 2 * 1024 * 1024, `dist/cli-main.js is ${bundle('cli-main').bytes} bytes`);
    // dist/cli.js only loads it (src/cli/load.ts): no part of the core.
    assert.deepEqual(bundle('cli').inputs, ['src/cli/load.ts']);
  });
});
