import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { redactedFileLines } from '../../../src/core/trim/lines';
import { gatherPool, pooled } from '../../../src/core/trim/log-pool';
import { variantSites } from '../../../src/core/trim/log-wordings';
import { scanErrors } from '../../../src/core/trim/log-scan';
import { trimLog } from '../../../src/core/trim/log';
import { maskTokens } from '../../../src/core/trim/templates';
import { lines, options } from './fixtures';

/** `n` requests of three lines (info, error, info), each with its own correlation id; the errors of one template. */
function requests(n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const id = `req-${String(k).padStart(6, '0')}`;
    const t = `2026-11-12T08:${String(Math.floor(k / 60) % 60).padStart(2, '0')}:${String(k % 60).padStart(2, '0')}.000Z`;
    out.push(`${t}  INFO 1 --- [exec-1] c.a.Api : [corr=${id}] incoming request ${k}`);
    out.push(`${t} ERROR 1 --- [exec-1] c.a.Api : [corr=${id}] ledger call failed code=${k % 7}`);
    out.push(`${t}  INFO 1 --- [exec-1] c.a.Api : request ${k} done`);
  }
  return out.join('\n') + '\n';
}

describe('log pool: the context of the errors named', () => {
  const log = lines(requests(4));
  const scan = scanErrors(log);

  it('pools every error\'s own line, and the window and correlated lines only of those named', () => {
    const first = (s: { id: number }) => s.id === 0;
    const pool = gatherPool(log, scan, 1, 0, first);
    assert.deepEqual([...pool.lines.keys()].sort((a, b) => a - b), [0, 1, 2, 4, 7, 10]);
    assert.deepEqual(pool.reasons.get(0), [{ site: 0, kind: 'window', rank: 1 }, { site: 0, kind: 'corr', rank: 1 }]);
    assert.deepEqual(pool.reasons.get(4), [{ site: 1, kind: 'self', rank: 0 }]);
    const every = gatherPool(log, scan, 1, 0);
    assert.deepEqual([...every.lines.keys()].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    assert.deepEqual(every.reasons.get(3), [{ site: 1, kind: 'window', rank: 1 }, { site: 1, kind: 'corr', rank: 1 }]);
  });
});

describe('log trimming: hundreds of errors', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-log-pool-'));
  const abs = path.join(dir, 'app.log');
  fs.writeFileSync(abs, requests(300));

  it('keeps the first occurrence with its window and correlated line when every error\'s own line is too long to fit', () => {
    const file = redactedFileLines(abs);
    assert.ok(scanErrors(file).file, 'read from its bytes (pass 2 gathers the first occurrences\' context only)');
    for (const log of [file, lines(requests(300))]) {
      const out = trimLog(log, options(400));
      const kept = out.text.split('\n');
      assert.equal(out.originalLines, 900);
      assert.deepEqual(kept.slice(0, 2), ['Errors (E) and warnings (W) by template, most important first: count, first and last time, first message:', '  E ×300 (first 2026-11-12T08:00:00.000Z, last 2026-11-12T08:04:59.000Z): ledger call failed code=0']);
      assert.ok(kept.includes('2026-11-12T08:00:00.000Z  INFO 1 --- [exec-1] c.a.Api : [corr=req-000000] incoming request 0'), 'the correlated line before it');
      assert.ok(kept.includes('2026-11-12T08:00:00.000Z ERROR 1 --- [exec-1] c.a.Api : [corr=req-000000] ledger call failed code=0'), 'the first error');
      assert.ok(!kept.some((l) => l.includes('incoming request 1')), 'no other error\'s context');
    }
    assert.equal(trimLog(file, options(400)).text, trimLog(lines(requests(300)), options(400)).text, 'the same from the bytes and the stream');
  });
});

describe('templates: masks tried only where they can match', () => {
  it('masks the same with and without the strings each mask needs', () => {
    assert.deepEqual(maskTokens('GET /api/v1/x failed after 12ms from 10.0.0.1:80 id 0xff "quoted"'), ['GET', '<*>', 'failed', 'after', '<*>', 'from', '<*>', 'id', '<*>', '<*>']);
    assert.deepEqual(maskTokens('no slash here: deadbeefcafe1234 token'), ['no', 'slash', 'here:', '<*>', 'token']);
    assert.deepEqual(maskTokens('uuid 123e4567-e89b-42d3-a456-426614174000 mac 00:1a:2b:3c:4d:5e'), ['uuid', '<*>', 'mac', '<*>']);
  });
});

describe('log pool: gathered once per scan and shape', () => {
  it('gives the same pool again for the same scan, window, stack and whose context; another for any other', () => {
    const log = lines(requests(6));
    const scan = scanErrors(log);
    const every = pooled(log, scan, 1, 0, 'every');
    assert.equal(pooled(log, scan, 1, 0, 'every'), every);
    assert.notEqual(pooled(log, scan, 1, 0, 'firsts'), every);
    assert.notEqual(pooled(log, scan, 2, 0, 'every'), every);
    assert.notEqual(pooled(log, scan, 1, 3, 'every'), every);
    assert.deepEqual(pooled(log, scan, 1, 0, 'firsts'), gatherPool(log, scan, 1, 0, (s) => scan.groups[s.group].sites[0] === s));
    assert.deepEqual(every, gatherPool(log, scan, 1, 0));
    // Another snapshot of the same text (new lines, new scan): gathered again.
    const again = lines(requests(6));
    assert.notEqual(pooled(again, scanErrors(again), 1, 0, 'every'), every);
  });

  it('trims a log again under another budget exactly as a fresh trim does (the pool and wordings reused)', () => {
    const text = requests(300);
    const log = lines(text);
    for (const budget of [400, 2_000, 900]) {
      const reused = trimLog(log, options(budget));
      const fresh = trimLog(lines(text), options(budget));
      assert.deepEqual(reused, fresh, `budget ${budget}`);
    }
  });

  it("an occurrence's wording is read from the line its pool gives (made again when another pool's line differs)", () => {
    const log = lines(requests(3));
    const scan = scanErrors(log);
    const g = scan.groups.find((x) => x.severity === 'error')!;
    const pool = gatherPool(log, scan, 0, 0);
    assert.deepEqual(variantSites(g, pool, 3), []);
    // The same sites, their lines reworded (as another pool of other bytes would give them): the variants follow.
    const other = { lines: new Map(pool.lines), reasons: pool.reasons };
    const second = g.sites[1].index;
    other.lines.set(second, other.lines.get(second)!.replace('ledger call failed', 'payment gateway refused'));
    assert.deepEqual(variantSites(g, other, 3), [g.sites[1]]);
    assert.deepEqual(variantSites(g, pool, 3), []);
  });
});
