import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { defaultPolicy } from '../../../src/core/policy';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { isBinary } from '../../../src/core/sources/scan';
import { evidenceCache, trimCache, trimToolOutputs } from '../../../src/core/chain/trim';
import { TiktokenCounter } from '../../../src/core/tokens';
import { tempWorkspace } from '../sources/fixtures';

const log = (n: number) =>
  Array.from({ length: n }, (_, i) => (i === n - 3 ? `2026-11-12T10:00:00.000Z ERROR [corr=abc12345] Ledger call failed: Read timed out after ${i}ms` : `2026-11-12T10:00:00.000Z  INFO [corr=id${i}xyz] Payment created id=pay_${i}`)).join('\n') + '\n';

describe('log size, sniffing and the trim cache', () => {
  it('trims a log over max_file_bytes instead of skipping it; a document over it is still skipped', () => {
    const root = tempWorkspace({ 'logs/app.log': log(400), 'docs/huge.md': `# Huge\n\n${'x'.repeat(5000)}\n` });
    const policy = defaultPolicy();
    policy.max_file_bytes = 4096;
    const s = loadSnapshot({ root, task: 'Why does the ledger time out?', policy, changes: false });
    assert.deepEqual(s.toolOutputs.map((t) => [t.path, t.size]), [['logs/app.log', Buffer.byteLength(log(400))]]);
    assert.deepEqual(s.warnings.map((w) => `${w.source}: ${w.message}`), ['docs/huge.md: skipped: 5009 bytes exceeds max_file_bytes 4096']);
  });

  it('sniffs only the bytes a file has: a NUL past a short size is not read', () => {
    const root = tempWorkspace({ 'a.txt': Buffer.from([0x41, 0x42, 0x00]), 'b.txt': 'plain text\n' });
    assert.equal(isBinary(path.join(root, 'a.txt'), 3), true);
    assert.equal(isBinary(path.join(root, 'a.txt'), 2), false);
    assert.equal(isBinary(path.join(root, 'b.txt')), false);
    assert.equal(isBinary(path.join(root, 'a.txt')), true);
  });

  it('reuses the trim of an unchanged file, and trims again when its mtime, size or the policy changes', () => {
    const root = tempWorkspace({ 'logs/app.log': log(3000) });
    const policy = defaultPolicy();
    const counter = new TiktokenCounter('o200k_base');
    evidenceCache.clear();
    trimCache.clear();
    const run = (p = policy) => {
      const s = loadSnapshot({ root, task: 'Why does the ledger time out?', policy: p, changes: false });
      return trimToolOutputs(s.toolOutputs, p, counter);
    };
    const first = run();
    assert.equal(first.decisions.trimmed?.length, 1);
    assert.deepEqual([evidenceCache.hits, trimCache.hits], [0, 0]);
    const second = run();
    assert.deepEqual(second, first);
    assert.deepEqual([evidenceCache.hits, trimCache.hits], [1, 1]);
    // A new mtime: measured and trimmed again.
    const file = path.join(root, 'logs', 'app.log');
    fs.utimesSync(file, new Date(), new Date(Date.parse('2030-01-01T00:00:00Z')));
    assert.deepEqual(run(), first);
    assert.deepEqual([evidenceCache.hits, trimCache.hits], [1, 1]);
    // Another policy (a smaller zone): the evidence is reused, the trim is not.
    const smaller = { ...policy, zones: { ...policy.zones, tool_results: { max_tokens: 400 } } };
    const third = run(smaller);
    assert.deepEqual([evidenceCache.hits, trimCache.hits], [2, 1]);
    const share = (r: typeof first) => (r.decisions.trimmed?.[0] as { share?: number } | undefined)?.share;
    assert.deepEqual([share(first), share(third)], [1500, 400]);
  });
});
