import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import fc from 'fast-check';
import { formatNumber, formatPercent } from '../../src/view-model/format';

/**
 * How every property test runs (issue 13, requirement 4): a random seed unless one is given, printed so that a
 * failure can be replayed; at least 1 000 runs in the unit suite (`npm run fuzz`: 10 000); and the coverage of the
 * paths the property is about, with floors that fail the test when the generators stop reaching them.
 *
 *   CTXCTL_PROP_SEED=123 CTXCTL_PROP_RUNS=5000 node --test out/test/unit/chain/enforce.property.test.js
 *
 * CTXCTL_PROP_RUNS sets the run count of every property (a replay); CTXCTL_PROP_SCALE multiplies each property's
 * own count instead (`npm run fuzz` uses 10).
 */

export const DEFAULT_RUNS = 1000;
/** Below this many runs the coverage is printed but its floors are not checked (a replay of a few runs). */
export const FLOOR_MIN_RUNS = 200;

export interface RunSettings {
  seed: number;
  /** The run count for a property whose own count is `own` (default DEFAULT_RUNS). */
  runsFor(own?: number): number;
}

function positiveInt(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value.trim()) || Number(value) < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${value}"`);
  return Number(value);
}

/** The seed and run count from the environment; a fresh random seed when none is given. */
export function runSettings(env: NodeJS.ProcessEnv = process.env, random: () => number = Math.random): RunSettings {
  const seed = positiveInt('CTXCTL_PROP_SEED', env.CTXCTL_PROP_SEED, -(2 ** 31)) ?? Math.floor(random() * 2 ** 31);
  const fixed = positiveInt('CTXCTL_PROP_RUNS', env.CTXCTL_PROP_RUNS, 1);
  const scale = positiveInt('CTXCTL_PROP_SCALE', env.CTXCTL_PROP_SCALE, 1) ?? 1;
  return { seed, runsFor: (own = DEFAULT_RUNS) => fixed ?? own * scale };
}

/** fast-check options for a property that has no coverage of its own to report: the seed and runs, printed. */
export function fcOptions(t: TestContext, settings: RunSettings = runSettings()): { seed: number; numRuns: number } {
  const numRuns = settings.runsFor();
  t.diagnostic(seedLine(settings.seed, numRuns));
  return { seed: settings.seed, numRuns };
}

const replayOf = (seed: number, runs: number) => `CTXCTL_PROP_SEED=${seed} CTXCTL_PROP_RUNS=${runs}`;
const seedLine = (seed: number, runs: number) => `seed ${seed}, ${formatNumber(runs)} runs (replay: ${replayOf(seed, runs)})`;

/** Counts, per label, the runs that went down an interesting path. */
export class Coverage {
  readonly counts = new Map<string, number>();
  runs = 0;

  constructor(labels: readonly string[]) {
    for (const l of labels) this.counts.set(l, 0);
  }

  /** Count `label` once for this run (call at most once per run and label). */
  hit(label: string, when = true): void {
    if (!this.counts.has(label)) throw new Error(`coverage label "${label}" was not declared`);
    if (when) this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
  }

  lines(spec: CoverageSpec): string[] {
    return [...this.counts].map(([label, n]) => {
      const floor = spec.floors[label];
      const bound = floor !== undefined ? `floor ${formatPercent(floor)}` : spec.never?.includes(label) ? 'must be 0' : 'reported';
      return `${label}: ${formatNumber(n)} of ${formatNumber(this.runs)} runs (${formatPercent(this.runs ? n / this.runs : 0)}; ${bound})`;
    });
  }

  /** Failures of the floors: each label under its floor, each `never` label that happened. */
  shortfalls(spec: CoverageSpec): string[] {
    const out: string[] = [];
    for (const [label, floor] of Object.entries(spec.floors)) {
      const n = this.counts.get(label);
      if (n === undefined) throw new Error(`coverage floor for undeclared label "${label}"`);
      if (this.runs >= FLOOR_MIN_RUNS && n < floor * this.runs) out.push(`${label}: ${n} of ${this.runs} runs, under the floor of ${formatPercent(floor)}`);
    }
    for (const label of spec.never ?? []) {
      if ((this.counts.get(label) ?? 0) > 0) out.push(`${label}: ${this.counts.get(label)} runs, must be 0`);
    }
    return out;
  }
}

export interface CoverageSpec {
  /** label → the least share of runs (0…1) that must go down that path. */
  floors: Record<string, number>;
  /** Labels that must never happen. */
  never?: string[];
}

export interface PropertySpec<Ts extends unknown[]> extends CoverageSpec {
  /** Every label counted, in the order printed. */
  labels: readonly string[];
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> };
  /** The property: assert inside, and count the paths this run took on `cov`. */
  check: (cov: Coverage, ...args: Ts) => void;
  /** The unit suite's run count when CTXCTL_PROP_RUNS is not set (default 1 000). */
  runs?: number;
}

/**
 * Run one property: print the seed and the replay command, run it, print its coverage, and fail when a floor is not
 * met. Coverage counts the runs of the property itself; a failing property stops here with fast-check's own report
 * (seed, path, counterexample), before coverage matters.
 */
export function checkProperty<Ts extends unknown[]>(t: TestContext, spec: PropertySpec<Ts>, settings: RunSettings = runSettings()): Coverage {
  const numRuns = settings.runsFor(spec.runs);
  const replay = replayOf(settings.seed, numRuns);
  t.diagnostic(seedLine(settings.seed, numRuns));
  const cov = new Coverage(spec.labels);
  let shrinking = false;
  const property = fc.property(...(spec.arbitraries as unknown as [fc.Arbitrary<unknown>]), (...args: unknown[]) => {
    if (!shrinking) cov.runs++;
    try {
      spec.check(cov, ...(args as Ts));
    } catch (e) {
      shrinking = true;
      throw e;
    }
  });
  fc.assert(property, { seed: settings.seed, numRuns });
  for (const line of cov.lines(spec)) t.diagnostic(`coverage ${line}`);
  if (cov.runs < FLOOR_MIN_RUNS) t.diagnostic(`coverage floors not checked below ${FLOOR_MIN_RUNS} runs`);
  const short = cov.shortfalls(spec);
  assert.deepEqual(short, [], `coverage below its floors (${replay}):\n${short.join('\n')}`);
  return cov;
}
