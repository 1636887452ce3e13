import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import fc from 'fast-check';
import { checkProperty, Coverage, FLOOR_MIN_RUNS, runSettings } from './property-harness';

/** A test context that keeps what the harness prints. */
function context(): { t: TestContext; printed: string[] } {
  const printed: string[] = [];
  return { t: { diagnostic: (m: string) => printed.push(m) } as unknown as TestContext, printed };
}

describe('the property harness', () => {
  it('takes a random seed and 1 000 runs by default; the environment fixes the seed, the runs or their scale', () => {
    const r = runSettings({}, () => 0.5);
    assert.equal(r.seed, 2 ** 30);
    assert.deepEqual([r.runsFor(), r.runsFor(40)], [1000, 40]);
    const fixed = runSettings({ CTXCTL_PROP_SEED: '-42', CTXCTL_PROP_RUNS: '7', CTXCTL_PROP_SCALE: '10' });
    assert.deepEqual([fixed.seed, fixed.runsFor(), fixed.runsFor(40)], [-42, 7, 7]);
    const scaled = runSettings({ CTXCTL_PROP_SEED: '3', CTXCTL_PROP_SCALE: '10' });
    assert.deepEqual([scaled.runsFor(), scaled.runsFor(40)], [10000, 400]);
    assert.throws(() => runSettings({ CTXCTL_PROP_RUNS: 'many' }), { message: 'CTXCTL_PROP_RUNS must be an integer ≥ 1, got "many"' });
    assert.throws(() => runSettings({ CTXCTL_PROP_RUNS: '0' }), { message: 'CTXCTL_PROP_RUNS must be an integer ≥ 1, got "0"' });
    assert.throws(() => runSettings({ CTXCTL_PROP_SEED: '1.5' }), /^Error: CTXCTL_PROP_SEED must be an integer/);
  });

  it('coverage: counts declared labels only, reports each against its floor, and names every shortfall', () => {
    const cov = new Coverage(['often', 'rare', 'impossible']);
    assert.throws(() => cov.hit('typo'), { message: 'coverage label "typo" was not declared' });
    for (let i = 0; i < FLOOR_MIN_RUNS; i++) {
      cov.runs++;
      cov.hit('often', i % 2 === 0);
      cov.hit('rare', i === 0);
      cov.hit('impossible', i === 7);
    }
    const spec = { floors: { often: 0.3, rare: 0.1 }, never: ['impossible'] };
    assert.deepEqual(cov.lines(spec), [
      'often: 100 of 200 runs (50\u202f%; floor 30\u202f%)',
      'rare: 1 of 200 runs (1\u202f%; floor 10\u202f%)',
      'impossible: 1 of 200 runs (1\u202f%; must be 0)',
    ]);
    assert.deepEqual(cov.shortfalls(spec), ['rare: 1 of 200 runs, under the floor of 10\u202f%', 'impossible: 1 runs, must be 0']);
  });

  it('floors are not checked on a short replay, but "never" labels are', () => {
    const cov = new Coverage(['rare', 'impossible']);
    cov.runs = FLOOR_MIN_RUNS - 1;
    cov.hit('impossible');
    assert.deepEqual(cov.shortfalls({ floors: { rare: 0.5 }, never: ['impossible'] }), ['impossible: 1 runs, must be 0']);
  });

  it('checkProperty prints the seed and the coverage, and fails a property whose generator misses its floor', () => {
    const { t, printed } = context();
    const settings = { seed: 99, runsFor: () => 300 };
    assert.throws(
      () => checkProperty(t, { labels: ['big'], floors: { big: 0.5 }, arbitraries: [fc.integer({ min: 0, max: 9 })], check: (cov, n: number) => cov.hit('big', n >= 9) }, settings),
      (e: Error) => e.message.startsWith('coverage below its floors (CTXCTL_PROP_SEED=99 CTXCTL_PROP_RUNS=300):\nbig: '),
    );
    assert.equal(printed[0], 'seed 99, 300 runs (replay: CTXCTL_PROP_SEED=99 CTXCTL_PROP_RUNS=300)');
    assert.match(printed[1], /^coverage big: \d+ of 300 runs \(\d+\u202f%; floor 50\u202f%\)$/);
  });

  it('checkProperty reports a failing property with fast-check\'s seed and counterexample', () => {
    const { t } = context();
    assert.throws(
      () => checkProperty(t, { labels: [], floors: {}, arbitraries: [fc.integer({ min: 0, max: 100 })], check: (_cov, n: number) => assert.ok(n < 50, `${n} is too big`) }, { seed: 5, runsFor: () => 200 }),
      (e: Error) => /Property failed after \d+ tests\n\{ seed: 5, path: "[\d:]+"(, endOnFailure: \w+)? \}\nCounterexample: \[50\]/.test(e.message),
    );
  });
});
