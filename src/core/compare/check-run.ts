import { hostFs as fs } from '../host';
import * as path from 'node:path';
import type { ChainEngine } from '../engine-port';
import { ContextBudgetExceeded, InputError } from '../errors';
import { openOffloadStore } from '../offload/store';
import type { Provider } from '../providers/provider';
import type { Clock } from '../providers/retry';
import type { SummaryRecord } from '../session/summary-store';
import { resolveInWorkspace } from '../sources/guard';
import type { Warning } from '../types';
import type { CheckCase } from './checks-file';
import { checkAnswer, checkEvidence, requestText, type CheckResult } from './checks';

/**
 * Run one case of a checks file: build its request from the workspace (its task, its policy or the workspace's,
 * an offload store of its own) and check the evidence; with a provider, send it once and check the answer. A
 * request that cannot be built, or a send that fails, is a failure of the case with the reason, never a crash.
 */

export interface CaseResult {
  name: string;
  line: number;
  /** Every expectation's result, in the file's order: evidence first, then the answer's. */
  results: CheckResult[];
  /** Answer expectations not checked because no provider ran. */
  skipped: CheckResult[];
  /** Why the request could not be built or sent; the case fails with it. */
  error?: string;
  final_tokens?: number;
}

export interface CaseOptions {
  root: string;
  model: string;
  encoding?: string;
  sessionFile?: string;
  summaries?: { records: SummaryRecord[]; warnings?: Warning[] };
  provider?: () => Provider;
  clock?: Clock;
  signal?: AbortSignal;
  /** A fresh folder for this case's offload store. */
  offloadDir: string;
  /** The checks file, for error locations. */
  file: string;
}

/**
 * A case's path through the workspace guard (sources/guard.ts), relative to the workspace: one that does not exist is
 * fine here (literal task text; a missing policy is reported below); one that exists must resolve, links followed,
 * inside the workspace, and be a regular file that is not a secret. Undefined when fine, else why not.
 */
function caseRefusal(root: string, key: 'policy' | 'task', rel: string): string | undefined {
  if (rel.length >= 4096 || rel.includes('\n')) return undefined;
  const d = resolveInWorkspace(rel, { root, mayBeMissing: true });
  if (d.ok) return undefined;
  if (d.kind === 'outside' || d.kind === 'link-outside') return `${key} ${rel} is outside the workspace${d.kind === 'link-outside' ? ' (through a symbolic link)' : ''}`;
  if (key === 'task' && d.kind === 'missing') return undefined;
  return `${key} ${rel} ${d.why}`;
}

/** One word with an extension or a slash: meant as a file, not as the task's text. */
function looksLikePath(task: string): boolean {
  const t = task.trim();
  return !/\s/.test(t) && (/\.[A-Za-z0-9]{1,5}$/.test(t) || t.includes('/'));
}

export function casePassed(r: CaseResult): boolean {
  return !r.error && r.results.every((x) => x.ok);
}

/** Through the folder's engine (`engine.check`): its policy, its snapshot, its chain and its send loop. */
export async function runCase(engine: ChainEngine, c: CheckCase, options: CaseOptions): Promise<CaseResult> {
  const base: CaseResult = { name: c.name, line: c.line, results: [], skipped: [] };
  // The checks file is workspace content: its paths may not reach outside the workspace (a task file is sent).
  for (const [key, rel] of [['policy', c.policy], ['task', c.task]] as const) {
    const refused = rel ? caseRefusal(options.root, key, rel) : undefined;
    if (refused) throw new InputError(`case "${c.name}": ${refused}`, options.file, c.line);
  }
  const policyFile = c.policy ? path.resolve(options.root, c.policy) : undefined;
  if (policyFile && !fs.existsSync(policyFile)) throw new InputError(`case "${c.name}": policy file not found: ${c.policy} (relative to the workspace)`, options.file, c.line);
  const policy = engine.policy(policyFile);
  const snapshot = engine.load({ task: c.task, cwd: options.root, policy, sessionFile: options.sessionFile });
  if (snapshot.task.source === 'task' && looksLikePath(c.task)) {
    throw new InputError(`case "${c.name}": task file not found: ${c.task} (a path is relative to the workspace; literal text needs a space)`, options.file, c.line);
  }
  const o = policy.offload;
  const store = () => openOffloadStore(options.offloadDir, { maxAgeDays: o.retention_days, maxMegabytes: o.retention_mb });
  const probe = options.provider?.();
  let assembly;
  try {
    assembly = engine.assemble(snapshot, { model: options.model, encoding: options.encoding, summaries: options.summaries ?? false, shape: probe?.shape, stream: probe?.streams, offloadStore: store() });
  } catch (e) {
    if (e instanceof ContextBudgetExceeded) return { ...base, error: `the request could not be built: ${e.message.split('\n')[0]}` };
    throw e;
  }
  const evidence = checkEvidence(c.evidence, assembly.manifest, requestText(assembly.neutral));
  const result: CaseResult = { ...base, results: evidence, final_tokens: assembly.manifest.budget.final };
  if (c.answer.length === 0) return result;
  if (!options.provider) return { ...result, skipped: checkAnswer(c.answer, '').map((x) => ({ ...x, ok: true, found: 'not checked: nothing was sent' })) };
  const outcome = await engine.send(snapshot, { provider: options.provider(), model: options.model, encoding: options.encoding, summaries: options.summaries, clock: options.clock, signal: options.signal, offload: store() });
  if (outcome.error) return { ...result, error: `the send failed: ${outcome.error.message.split('\n')[0]}` };
  return { ...result, results: [...evidence, ...checkAnswer(c.answer, outcome.answer)] };
}
