import * as path from 'node:path';
import type { Assembly } from '../chain/assemble';
import type { ChainEngine } from '../engine-port';
import type { ToolResultSpec } from '../offload/results';
import { openOffloadStore } from '../offload/store';
import { ContextBudgetExceeded } from '../errors';
import type { Provider } from '../providers/provider';
import { systemClock, type Clock } from '../providers/retry';
import type { Policy } from '../policy';
import type { WireShape } from '../providers/shape';
import type { Manifest } from '../report/manifest';
import type { SendOutcome } from '../send/loop';
import type { SummaryRecord } from '../session/summary-store';
import type { Snapshot } from '../sources/snapshot';
import type { Warning } from '../types';
import type { CheckCase } from './checks-file';
import { checkAnswer, checkEvidence, requestText, type CheckResult } from './checks';
import { costOf } from './cost';
import { diffDecisions, type DecisionsDiff } from './diff';

/**
 * Compare context policies on one task. Every variant starts from the same state: the same task, model, settings,
 * session, summaries and pins, read from the workspace for each variant, and an offload store of its own (a fresh
 * folder per variant and per run), so no variant sees what another wrote. Dry run: the requests are built and
 * compared. With a provider: each variant is also sent `runs` times, one after the other.
 */

export interface VariantSpec {
  /** Short label for tables (`policy`, `lean`). */
  name: string;
  /** Absolute path of the policy file. */
  file: string;
  /** The policy already read and composed (the editor's: its settings' envelope and the model's window); default: the file's. */
  policy?: Policy;
}

/** Variant names from the policy files' names (`policy`, `lean`), made unique when two share one (`policy-3`). */
export function variantNames(files: string[]): VariantSpec[] {
  const base = files.map((f) => path.basename(f).replace(/\.ya?ml$/i, ''));
  return files.map((file, i) => ({ file, name: base.filter((b) => b === base[i]).length > 1 ? `${base[i]}-${i + 1}` : base[i] }));
}

export interface CompareInput {
  root: string;
  task: string;
  cwd?: string;
  variants: VariantSpec[];
  sessionFile?: string;
  component?: string;
  /** Tool results returned in this step (`NAME=FILE`): the same files for every variant, offloaded into its own store. */
  toolResults?: ToolResultSpec[];
  summaries?: { records: SummaryRecord[]; warnings?: Warning[] };
  model: string;
  encoding?: string;
  /**
   * The snapshot of a variant, for a host whose inputs are not only the disk (the editor: its pins, unsaved buffers,
   * active file): with the same inputs as the host's own preview, the variant of the current policy is that request.
   */
  load?: (policy: Policy) => Snapshot;
  /** A new provider per run; absent for a dry run. */
  provider?: () => Provider;
  shape?: WireShape;
  runs: number;
  maxSteps?: number;
  cases: CheckCase[];
  /** A fresh, empty folder for a variant's offload store (run 0 is the dry assembly). */
  offloadDir: (variant: number, run: number) => string;
  clock?: Clock;
  signal?: AbortSignal;
  onNotice?: (message: string) => void;
}

export interface RunResult {
  run: number;
  answer: string;
  stopped: SendOutcome['stopped'];
  steps: number;
  input_tokens?: number;
  output_tokens?: number;
  cached_tokens?: number;
  latency_ms: number;
  cost_usd?: number;
  error?: string;
  /** Answer checks of every case, in order. */
  checks: CheckResult[];
}

export interface CaseChecks {
  case: string;
  line: number;
  evidence: CheckResult[];
}

export interface VariantResult {
  name: string;
  policy: string;
  assembly: Assembly;
  manifest: Manifest;
  evidence: CaseChecks[];
  runs: RunResult[];
  outcomes: SendOutcome[];
}

export interface CompareResult {
  task: string;
  model: string;
  provider: string;
  variants: VariantResult[];
  diff: DecisionsDiff;
}

/** Through the folder's engine (`engine.compare`): its policy, its snapshot, its chain and its send loop. */
export async function compare(engine: ChainEngine, input: CompareInput): Promise<CompareResult> {
  const clock = input.clock ?? systemClock;
  const now = () => new Date(clock.now());
  const variants: VariantResult[] = [];
  let providerId = 'dry-run';
  for (const [i, spec] of input.variants.entries()) {
    const policy = spec.policy ?? engine.policy(spec.file);
    const snapshot = input.load ? input.load(policy) : engine.load({ task: input.task, cwd: input.cwd, policy, sessionFile: input.sessionFile, component: input.component, toolResults: input.toolResults });
    const probe = input.provider?.();
    let assembly: Assembly;
    try {
      assembly = engine.assemble(snapshot, {
        model: input.model,
        encoding: input.encoding,
        shape: probe?.shape ?? input.shape ?? 'openai',
        stream: probe?.streams ?? true,
        summaries: input.summaries ?? false,
        now,
        offloadStore: storeFor(snapshot, input.offloadDir(i, 0), now),
      });
    } catch (e) {
      // Say which variant cannot be built: the others are not compared against a request that does not exist.
      if (e instanceof ContextBudgetExceeded) e.message = `variant ${spec.name} (${policy.origin}): ${e.message}`;
      throw e;
    }
    const text = requestText(assembly.neutral);
    const evidence = input.cases.map((c) => ({ case: c.name, line: c.line, evidence: checkEvidence(c.evidence, assembly.manifest, text) }));
    const runs: RunResult[] = [];
    const outcomes: SendOutcome[] = [];
    if (input.provider) {
      for (let r = 1; r <= input.runs; r++) {
        const provider = input.provider();
        providerId = provider.id;
        const started = clock.now();
        const outcome = await engine.send(snapshot, {
          provider,
          model: input.model,
          encoding: input.encoding,
          summaries: input.summaries,
          maxSteps: input.maxSteps,
          clock,
          signal: input.signal,
          offload: storeFor(snapshot, input.offloadDir(i, r), now),
          onNotice: (m) => input.onNotice?.(`${spec.name}, run ${r}: ${m}`),
        });
        outcomes.push(outcome);
        runs.push(runResult(r, outcome, clock.now() - started, input, provider.id));
      }
    }
    variants.push({ name: spec.name, policy: policy.origin, assembly, manifest: assembly.manifest, evidence, runs, outcomes });
  }
  return {
    task: variants[0]?.manifest.task.source ?? input.task,
    model: input.model,
    provider: providerId,
    variants,
    diff: diffDecisions(
      variants.map((v) => v.name),
      variants.map((v) => v.manifest),
    ),
  };
}

function storeFor(snapshot: Snapshot, dir: string, now: () => Date) {
  const o = snapshot.policy.offload;
  return openOffloadStore(dir, { maxAgeDays: o.retention_days, maxMegabytes: o.retention_mb }, now);
}

function runResult(run: number, outcome: SendOutcome, latency: number, input: CompareInput, providerId: string): RunResult {
  const sum = (pick: (u: NonNullable<SendOutcome['steps'][number]['usage']>) => number | undefined) => {
    const values = outcome.steps.map((s) => (s.usage ? pick(s.usage) : undefined)).filter((x): x is number => x !== undefined);
    return values.length ? values.reduce((a, b) => a + b, 0) : undefined;
  };
  const usage = { input: sum((u) => u.inputTokens), output: sum((u) => u.outputTokens), cached: sum((u) => u.cachedTokens) };
  const cost = costOf(input.model, { ...usage, cachedInInput: providerId !== 'anthropic' });
  const checks = input.cases.flatMap((c) => checkAnswer(c.answer, outcome.answer));
  return {
    run,
    answer: outcome.answer,
    stopped: outcome.stopped,
    steps: outcome.steps.length,
    ...(usage.input !== undefined ? { input_tokens: usage.input } : {}),
    ...(usage.output !== undefined ? { output_tokens: usage.output } : {}),
    ...(usage.cached !== undefined ? { cached_tokens: usage.cached } : {}),
    latency_ms: latency,
    ...(cost !== undefined ? { cost_usd: cost } : {}),
    ...(outcome.error ? { error: outcome.error.message } : {}),
    checks,
  };
}

export interface Spread {
  runs: number;
  min: number;
  max: number;
  mean: number;
}

/** Min, max and mean of a figure across runs; undefined when no run reported it. */
export function spreadOf(values: (number | undefined)[]): Spread | undefined {
  const xs = values.filter((x): x is number => x !== undefined);
  if (xs.length === 0) return undefined;
  return { runs: xs.length, min: Math.min(...xs), max: Math.max(...xs), mean: xs.reduce((a, b) => a + b, 0) / xs.length };
}

export function variantSpread(v: VariantResult): Record<string, Spread | undefined> {
  return {
    input_tokens: spreadOf(v.runs.map((r) => r.input_tokens)),
    output_tokens: spreadOf(v.runs.map((r) => r.output_tokens)),
    cached_tokens: spreadOf(v.runs.map((r) => r.cached_tokens)),
    latency_ms: spreadOf(v.runs.map((r) => r.latency_ms)),
    cost_usd: spreadOf(v.runs.map((r) => r.cost_usd)),
    answer_checks_passed: spreadOf(v.runs.map((r) => r.checks.filter((c) => c.ok).length)),
  };
}
