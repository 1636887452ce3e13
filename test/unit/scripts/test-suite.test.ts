import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { REPO } from '../helpers';

/** scripts/test-suite.mjs (the counts and closing line of `node scripts/test.mjs`), run on fixture test files. */
const FIXTURES = path.join(REPO, 'test', 'fixtures', 'test-suite');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-test-suite-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Call an export of the ES module from this CommonJS test: in a child node, printing the JSON result. */
function call(fn: string, ...args: unknown[]): unknown {
  const mod = pathToFileURL(path.join(REPO, 'scripts', 'test-suite.mjs')).href;
  const code = `import * as m from ${JSON.stringify(mod)}; console.log(JSON.stringify(m.${fn}(...${JSON.stringify(args)}) ?? null));`;
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

describe('scripts/test-suite.mjs', () => {
  it('counts a skipped test and todo tests, and the closing line names them', () => {
    const counts = call('runNodeTests', [path.join(FIXTURES, 'skipped.test.mjs')], path.join(tmp, 'skipped.tap'), { quiet: true });
    assert.deepEqual(counts, { passed: 1, failed: 0, skipped: 1, todo: 2 });
    assert.equal(call('closingLine', 'unit', counts), 'unit: 1 passed, 0 failed, 1 skipped, 2 todo');
  });

  it('counts a failure', () => {
    const counts = call('runNodeTests', [path.join(FIXTURES, 'failing.test.mjs')], path.join(tmp, 'failing.tap'), { quiet: true });
    assert.deepEqual(counts, { passed: 1, failed: 1, skipped: 0, todo: 0 });
  });

  it('a run that exits non-zero with no failure counted is one failure', () => {
    assert.deepEqual(call('countsFromTap', '# pass 3\n# fail 0\n', 1), { passed: 3, failed: 1, skipped: 0, todo: 0 });
    assert.deepEqual(call('countsFromTap', '', 0), { passed: 0, failed: 0, skipped: 0, todo: 0 });
  });

  it('finds a focused test (.only), naming the file and the line, and skips fixture folders', () => {
    // Spelled in two pieces so that this file is not itself a focused test for the scan of test/.
    const line = `it${'.'}only('runs alone', () => {});`;
    assert.deepEqual(call('findFocused', FIXTURES, REPO), [`test/fixtures/test-suite/focused/focused.test.mjs:5: ${line}`]);
    assert.deepEqual(call('findFocused', path.join(REPO, 'test'), REPO), [], 'the fixtures are not the suite: test/ has no focused test');
  });

  it('reads the closing line of the integration suite, with or without skipped and todo', () => {
    assert.deepEqual(call('lastCounts', 'x\nintegration: 3 passed, 1 failed, 2 skipped\nintegration: 4 passed, 0 failed, 1 skipped, 5 todo\n', 'integration'), { passed: 4, failed: 0, skipped: 1, todo: 5 });
    assert.deepEqual(call('lastCounts', 'e2e: 7 passed, 0 failed\n', 'e2e'), { passed: 7, failed: 0, skipped: 0, todo: 0 });
    assert.equal(call('lastCounts', 'nothing here', 'e2e'), null);
  });
});
