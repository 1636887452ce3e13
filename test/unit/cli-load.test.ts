import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { EXAMPLE, REPO } from './helpers';

/** dist/cli.js loads the CLI's bundle with the code cache the build made (src/cli/load.ts); each case runs in a child node. */
const DIST = path.join(REPO, 'dist');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-load-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function node(script: string, cwd = REPO): string {
  return execFileSync(process.execPath, ['-e', script], { cwd, encoding: 'utf8' });
}

/** What `bundleScript` says of a bundle and a cache file, asked through dist/cli.js. */
function cachedState(bundle: string, cache: string): string {
  return node(`process.stdout.write(require(${JSON.stringify(path.join(DIST, 'cli.js'))}).bundleScript(${JSON.stringify(bundle)}, ${JSON.stringify(cache)}).cached)`);
}

const preview = ['preview', '--workspace', EXAMPLE, '--task', path.join(EXAMPLE, 'ticket.md'), '--no-git'];

describe('the CLI loader (dist/cli.js) and its code cache', () => {
  it('the build made a cache of the very bundle: the SHA-256 of the bundle and the whole data, then data V8 accepts', () => {
    const cache = fs.readFileSync(path.join(DIST, 'cli-main.js.cache'));
    const digest = crypto.createHash('sha256').update(fs.readFileSync(path.join(DIST, 'cli-main.js'))).update(cache.subarray(32)).digest();
    assert.ok(digest.equals(cache.subarray(0, 32)));
    assert.ok(cache.length > 100_000, `${cache.length} bytes`);
    assert.equal(node(`process.stdout.write(require('./dist/cli.js').cached)`), 'used');
  });

  it('prints what the bundle itself prints', () => {
    const viaLoader = execFileSync(process.execPath, [path.join(DIST, 'cli.js'), ...preview], { encoding: 'utf8' });
    const direct = execFileSync(process.execPath, [path.join(DIST, 'cli-main.js'), ...preview], { encoding: 'utf8' });
    assert.match(viaLoader, /FINAL REQUEST/);
    assert.equal(viaLoader, direct);
  });

  it('never gives V8 the cache of other bytes, even of the same length', () => {
    const source = fs.readFileSync(path.join(DIST, 'cli-main.js'), 'utf8');
    const bundle = path.join(tmp, 'cli-main.js');
    // One character changed: V8's own check (the source's length) would pass.
    fs.writeFileSync(bundle, source.replace('ctxctl: internal error', 'ctxctl: internal errox'));
    assert.equal(fs.statSync(bundle).size, Buffer.byteLength(source));
    fs.copyFileSync(path.join(DIST, 'cli-main.js.cache'), `${bundle}.cache`);
    assert.equal(cachedState(bundle, `${bundle}.cache`), 'none');
  });

  it('compiles as it runs when V8 refuses the data or there is no cache, and the CLI works the same', () => {
    const bundle = path.join(DIST, 'cli-main.js');
    // Data V8 does not take, under a digest that matches it: it reaches V8, which refuses it.
    const junk = Buffer.alloc(4096, 7);
    const digest = crypto.createHash('sha256').update(fs.readFileSync(bundle)).update(junk).digest();
    const damaged = path.join(tmp, 'damaged.cache');
    fs.writeFileSync(damaged, Buffer.concat([digest, junk]));
    assert.equal(cachedState(bundle, damaged), 'rejected');
    assert.equal(cachedState(bundle, path.join(tmp, 'missing.cache')), 'none');
    // A copy of dist without the cache file: the same output.
    const copy = path.join(tmp, 'dist');
    fs.cpSync(DIST, copy, { recursive: true, filter: (f) => !f.endsWith('.cache') && !f.endsWith('.map') });
    assert.equal(node(`process.stdout.write(require(${JSON.stringify(path.join(copy, 'cli.js'))}).cached)`), 'none');
    const out = execFileSync(process.execPath, [path.join(copy, 'cli.js'), ...preview], { encoding: 'utf8' });
    assert.equal(out, execFileSync(process.execPath, [path.join(DIST, 'cli.js'), ...preview], { encoding: 'utf8' }));
  });
});
