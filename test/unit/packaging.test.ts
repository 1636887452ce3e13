import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from './helpers';

describe('packaging', () => {
  it('ships every bundle the extension loads (the VSIX is built from .vscodeignore)', () => {
    const build = fs.readFileSync(path.join(REPO, 'scripts', 'build.mjs'), 'utf8');
    const bundles = [...build.matchAll(/outfile: '(dist\/[^']+)'/g)].map((m) => m[1]).filter((f) => f !== 'dist/cli.js' && f !== 'dist/cli-main.js' && f !== 'dist/gateway-worker.js'); // the CLI's own, not the extension's
    assert.deepEqual(bundles.sort(), ['dist/assemble-worker.js', 'dist/extension.js', 'dist/send-worker.js', 'dist/session-host.js', 'dist/webview.js']);
    const shipped = fs.readFileSync(path.join(REPO, '.vscodeignore'), 'utf8').split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1));
    for (const b of bundles) assert.ok(shipped.includes(b), `${b} is listed in .vscodeignore`);
    // The rank tables the bundles require at run time ship once, beside them.
    assert.ok(shipped.includes('dist/ranks/**'), 'dist/ranks/** is listed in .vscodeignore');
    assert.deepEqual(fs.readdirSync(path.join(REPO, 'dist', 'ranks')).sort(), ['cl100k_base.bin', 'cl100k_base.js', 'cl100k_base.json', 'o200k_base.bin', 'o200k_base.js', 'o200k_base.json']);
    // So do the SDKs the send worker requires when it first sends (src/vendor/load.ts).
    assert.ok(shipped.includes('dist/vendor/*.js'), 'dist/vendor/*.js is listed in .vscodeignore');
    assert.deepEqual(fs.readdirSync(path.join(REPO, 'dist', 'vendor')).filter((f) => f.endsWith('.js')).sort(), ['anthropic.js', 'mcp.js', 'openai.js']);
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    assert.equal(pkg.main, './dist/extension.js');
    assert.equal(pkg.engines.vscode, '^1.100.0');
    assert.match(pkg.devDependencies['@types/vscode'], /^~1\.100\./);
  });
});
