import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from './helpers';

describe('packaging', () => {
  it('ships every bundle the extension loads (the VSIX is built from .vscodeignore)', () => {
    const build = fs.readFileSync(path.join(REPO, 'scripts', 'build.mjs'), 'utf8');
    const bundles = [...build.matchAll(/outfile: '(dist\/[^']+)'/g)].map((m) => m[1]).filter((f) => f !== 'dist/cli.js' && f !== 'dist/cli-main.js' && f !== 'dist/gateway-worker.js'); // the CLI's own, not the extension's
    assert.deepEqual(bundles.sort(), ['dist/assemble-worker.js', 'dist/extension.js', 'dist/send-worker.js', 'dist/session-host.js', 'dist/webview.js']);
    // The rank tables the bundles require at run time are built once, beside them (the .js copies are js-tiktoken's, a fallback).
    assert.deepEqual(fs.readdirSync(path.join(REPO, 'dist', 'ranks')).sort(), ['cl100k_base.bin', 'cl100k_base.index', 'cl100k_base.js', 'cl100k_base.json', 'o200k_base.bin', 'o200k_base.index', 'o200k_base.js', 'o200k_base.json']);
    assert.deepEqual(fs.readdirSync(path.join(REPO, 'dist', 'vendor')).filter((f) => f.endsWith('.js')).sort(), ['anthropic.js', 'mcp.js', 'openai.js']);
    // What the VSIX holds of dist/, as vsce lists it from .vscodeignore: each bundle the extension loads and the CLI
    // the editor's gateway runs (dist/cli.js, its bundle, its record worker); the rank files; the SDKs the send
    // worker requires. Not the CLI's code cache (made for the build's Node), the rank .js fallbacks, nor mcp.js (CLI only).
    const listed = spawnSync(process.execPath, [path.join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(listed.status, 0, listed.stderr);
    const files = listed.stdout.split('\n').filter(Boolean);
    assert.deepEqual(files.filter((f) => f.startsWith('dist/')).sort(), [
      ...bundles, 'dist/cli-main.js', 'dist/cli.js', 'dist/gateway-worker.js',
      'dist/ranks/cl100k_base.bin', 'dist/ranks/cl100k_base.index', 'dist/ranks/cl100k_base.json', 'dist/ranks/o200k_base.bin', 'dist/ranks/o200k_base.index', 'dist/ranks/o200k_base.json',
      'dist/vendor/anthropic.js', 'dist/vendor/openai.js',
    ].sort());
    // Every file of dist/ the extension's sources name is in it (extension.ts loads them with dist('…')).
    const named = [...fs.readFileSync(path.join(REPO, 'src', 'vscode', 'extension.ts'), 'utf8').matchAll(/dist\('([^']+)'\)/g)].map((m) => `dist/${m[1]}`);
    assert.ok(named.length >= 4, `extension.ts names ${named.join(', ')}`);
    for (const f of named) assert.ok(files.includes(f), `${f} is in the VSIX`);
    assert.deepEqual(files.filter((f) => !f.startsWith('dist/') && !/^(docs\/screenshots|media)\//.test(f)).sort(), ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    assert.equal(pkg.main, './dist/extension.js');
    assert.equal(pkg.engines.vscode, '^1.100.0');
    assert.match(pkg.devDependencies['@types/vscode'], /^~1\.100\./);
  });
});
