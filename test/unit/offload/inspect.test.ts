import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { run } from '../../../src/cli/main';
import { InputError } from '../../../src/core/errors';
import { inspectFile, resolveInspectable } from '../../../src/core/inspect';
import { openOffloadStore } from '../../../src/core/offload/store';
import { payload, tempDir } from './results';

function fixture(): string {
  const file = path.join(tempDir('inspect'), 'result.log');
  const lines = Array.from({ length: 30 }, (_, i) => (i === 9 || i === 11 || i === 25 ? `line ${i + 1} ERROR payment rejected` : `line ${i + 1} ok`));
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

describe('progressive inspection', () => {
  it('head: the first lines, numbered', () => {
    assert.equal(inspectFile(fixture(), { op: 'head', lines: 2 }), '     1  line 1 ok\n     2  line 2 ok');
  });

  it('grep: matches with their context, groups separated, and the total', () => {
    assert.equal(
      inspectFile(fixture(), { op: 'grep', pattern: 'ERROR', context: 1 }),
      [
        '     9- line 9 ok',
        '    10: line 10 ERROR payment rejected',
        '    11- line 11 ok',
        '    12: line 12 ERROR payment rejected',
        '    13- line 13 ok',
        '--',
        '    25- line 25 ok',
        '    26: line 26 ERROR payment rejected',
        '    27- line 27 ok',
        '3 matching lines',
      ].join('\n'),
    );
    assert.equal(inspectFile(fixture(), { op: 'grep', pattern: 'error', context: 0, maxMatches: 1, ignoreCase: true }), '    10: line 10 ERROR payment rejected\n3 matching lines (first 1 shown)');
  });

  it('count and shape', () => {
    assert.equal(inspectFile(fixture(), { op: 'count' }), '30 lines (30 non-empty), 381 bytes, longest line 30 characters, ~106 tokens (estimated)');
    const json = path.join(tempDir('inspect'), 'r.json');
    fs.writeFileSync(json, JSON.stringify({ total: 2, items: [{ id: 1, tags: ['a'] }, { id: 2, tags: [] }] }));
    assert.equal(
      inspectFile(json, { op: 'shape' }),
      ['JSON', '{', '  "total": number,', '  "items": [2] of {', '    "id": number,', '    "tags": [0..1] of string', '  }', '}', 'first 2 of 2 records ($.items):', '{"id":1,"tags":["a"]}', '{"id":2,"tags":[]}'].join('\n'),
    );
    assert.equal(inspectFile(fixture(), { op: 'shape' }), 'not JSON: unexpected "l" at line 1, column 1');
  });

  it('bad input is named: a missing file, an invalid pattern, a path outside the allowed folders', () => {
    assert.throws(() => inspectFile('/nonexistent/x.log', { op: 'count' }), (e: unknown) => e instanceof InputError && e.toString() === '/nonexistent/x.log: file not found');
    assert.throws(() => inspectFile(fixture(), { op: 'grep', pattern: '(' }), (e: unknown) => e instanceof InputError && /^invalid regular expression \/\(\/: /.test(e.message));
    const root = tempDir('ws');
    assert.equal(resolveInspectable('.context/offload/a.json', [root], root), path.join(root, '.context/offload/a.json'));
    assert.throws(() => resolveInspectable('../../etc/passwd', [root], root), /outside the workspace and the offload store: not inspectable/);
  });
});

describe('ctxctl inspect and ctxctl offload', () => {
  it('inspect runs the requested operations in order, streamed', async () => {
    const file = fixture();
    const r = await cli(['inspect', file, '--count', '--grep', 'ERROR', '-C', '0', '--max-matches', '2']);
    assert.equal(r.code, 0);
    assert.equal(r.out, '== count\n30 lines (30 non-empty), 381 bytes, longest line 30 characters, ~106 tokens (estimated)\n\n== grep\n    10: line 10 ERROR payment rejected\n--\n    12: line 12 ERROR payment rejected\n3 matching lines (first 2 shown)\n');
    assert.equal((await cli(['inspect', file])).out.split('\n').length, 21);
  });

  it('inspect refuses bad input with exit code 2 and a message', async () => {
    const r = await cli(['inspect', fixture(), '--head', '0']);
    assert.equal(r.code, 2);
    assert.match(r.err, /^ctxctl: inspect: --head must be a whole number ≥ 1, got "0"/);
    assert.equal((await cli(['inspect'])).code, 2);
    assert.match((await cli(['inspect', '/nonexistent.log'])).err, /^ctxctl: \/nonexistent\.log: file not found\n$/);
  });

  it('offload list and clear act on the workspace store', async () => {
    const root = tempDir('ws');
    const dir = path.join(root, '.context', 'offload');
    const written = openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }).put('a', { text: '{}' }, '.json');
    const name = path.basename(written.abs);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    assert.equal((await cli(['offload', 'list', '--workspace', root])).out, `${String(2).padStart(12)}  ${new Date(fs.statSync(written.abs).mtimeMs).toISOString()}  ${name}\n1 files, 2 bytes in ${dir}\n1 other file not written by Context Control (never removed): notes.txt\n`);
    const r = await cli(['offload', 'clear', '--workspace', root]);
    assert.equal(r.code, 0);
    assert.equal(r.out, `Removed 1 files (2 bytes) from ${dir}\n`);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.context-control-offload.json', '.gitignore', 'notes.txt']);
    assert.equal(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'mine');
    assert.equal((await cli(['offload', 'purge', '--workspace', root])).code, 2);
  });

  it('preview --tool-result NAME=FILE (repeatable): the results returned together flow into the chain', async () => {
    const root = tempDir('ws');
    const outside = tempDir('results');
    fs.writeFileSync(path.join(outside, 'big.json'), payload(6500, 50));
    fs.writeFileSync(path.join(outside, 'small.txt'), 'all 12 checks passed\n');
    const r = await cli(['preview', '--workspace', root, '--task', 'What failed?', '--tool-result', `search=${path.join(outside, 'big.json')}`, '--tool-result', `shell=${path.join(outside, 'small.txt')}`, '--json']);
    assert.equal(r.code, 0, r.err);
    const { manifest } = JSON.parse(r.out) as { manifest: { offloaded: { source: string; path: string; rule: string }[]; selected: { source: string }[] } };
    assert.deepEqual(manifest.offloaded.map((o) => [o.source, o.rule]), [['tool:search', 'per_result']]);
    assert.equal(fs.readFileSync(path.join(root, manifest.offloaded[0].path), 'utf8'), fs.readFileSync(path.join(outside, 'big.json'), 'utf8'));
    assert.ok(manifest.selected.some((s) => s.source === 'tool:shell'));
    const bad = await cli(['preview', '--workspace', root, '--task', 'x', '--tool-result', 'no-equals-sign']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^ctxctl: --tool-result expects NAME=FILE with NAME made of letters, digits/);
    const missing = await cli(['preview', '--workspace', root, '--task', 'x', '--tool-result', 'a=/nonexistent/r.json']);
    assert.equal(missing.err, 'ctxctl: /nonexistent/r.json: tool result file not found (--tool-result a=/nonexistent/r.json)\n');
  });
});
