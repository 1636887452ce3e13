import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { fifo, REPO, workspace } from './hostile';

/**
 * The CLI loader (dist/cli.js) beside a hostile code cache: a copy of dist/ gets the cache, and the CLI must run as
 * it runs without one (exit 0, the same trace), with V8 never given the data, and never block on reading it.
 */

const DIST = path.join(REPO, 'dist');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-redteam-cache-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const root = workspace({ 'README.md': '# Payments\n\nThe payment service retries twice.\n' });

/** A copy of dist/ whose cli-main.js.cache is made by `make` (given the cache's path and the build's own cache). */
function distWith(name: string, make: (cache: string, real: Buffer) => void): string {
  const copy = path.join(tmp, name);
  fs.cpSync(DIST, copy, { recursive: true, filter: (f) => !f.endsWith('.cache') && !f.endsWith('.map') });
  make(path.join(copy, 'cli-main.js.cache'), fs.readFileSync(path.join(DIST, 'cli-main.js.cache')));
  return copy;
}

function runIn(dist: string) {
  const script = `const cli = require(${JSON.stringify(path.join(dist, 'cli.js'))}); process.stderr.write('cached=' + cli.cached + '\\n'); Promise.resolve(cli.run(['preview', '--workspace', ${JSON.stringify(root)}, '--task', 'how does the payment service retry?', '--no-git'])).then((c) => (process.exitCode = c));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, signal: r.signal, out: r.stdout ?? '', err: r.stderr ?? '', timedOut: r.error !== undefined && /ETIMEDOUT/.test(String(r.error)) };
}

const plain = runIn(distWith('none', () => {}));

function assertRunsWithout(dist: string): void {
  const r = runIn(dist);
  assert.equal(r.timedOut, false, 'no hang');
  assert.equal(r.signal, null, `no crash: ${r.signal}`);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /^cached=none$/m, 'V8 was never given the data');
  assert.equal(r.out, plain.out, 'the same trace as without a cache');
}

describe('red team: a hostile code cache beside dist/cli-main.js', () => {
  it('runs without a cache first (the reference)', () => {
    assert.equal(plain.code, 0, plain.err);
    assert.match(plain.out, /FINAL REQUEST/);
  });

  it('the bundle\'s SHA-256 as its prefix (the old check) and damaged V8 data: not given to V8, no crash', () => {
    assertRunsWithout(
      distWith('old-prefix', (cache, real) => {
        const bundle = fs.readFileSync(path.join(path.dirname(cache), 'cli-main.js'));
        const data = Buffer.from(real.subarray(32));
        for (let i = 64; i < data.length; i += 97) data[i] ^= 0x5a;
        fs.writeFileSync(cache, Buffer.concat([createHash('sha256').update(bundle).digest(), data]));
      }),
    );
  });

  it('the build\'s own cache with one byte flipped far past its prefix, or cut in half: not given to V8', () => {
    assertRunsWithout(
      distWith('flipped', (cache, real) => {
        const copy = Buffer.from(real);
        copy[Math.floor(copy.length * 0.9)] ^= 0xff;
        fs.writeFileSync(cache, copy);
      }),
    );
    assertRunsWithout(distWith('cut', (cache, real) => fs.writeFileSync(cache, real.subarray(0, real.length >> 1))));
  });

  it('the cache as a FIFO: never opened for a blocking read, the CLI runs', () => {
    assertRunsWithout(distWith('fifo', (cache) => fifo(cache)));
  });

  it('the cache as a link to /dev/zero, or to the real cache: links are not followed; the CLI runs', () => {
    assertRunsWithout(distWith('zero', (cache) => fs.symlinkSync('/dev/zero', cache)));
    assertRunsWithout(distWith('link', (cache) => fs.symlinkSync(path.join(DIST, 'cli-main.js.cache'), cache)));
  });

  it('a cache file above 64 MiB (sparse): not read, the CLI runs', () => {
    assertRunsWithout(
      distWith('huge', (cache) => {
        const fd = fs.openSync(cache, 'w');
        fs.ftruncateSync(fd, 65 * 1024 * 1024);
        fs.closeSync(fd);
      }),
    );
  });
});
