import { DEFAULT_MODEL, type AssembleOptions, type Assembly } from '../chain/assemble';
import type { AssembleRequest } from '../engine-requests';
import type { ToolCall } from '../chain/render';
import * as path from 'node:path';
import { ContextBudgetExceeded } from '../errors';
import { openOffloadStore, type OffloadStore } from '../offload/store';
import { maxInput, withMaxInput, type Policy } from '../policy';
import { ProviderError } from '../providers/errors';
import type { PreparedRequest, Provider, SendResult } from '../providers/provider';
import { attemptsOf, sendWithRetry, systemClock, type AttemptRecord, type Clock, type RetryPolicy } from '../providers/retry';
import { renderTrace } from '../report/trace';
import { displayPath, type Snapshot } from '../sources/snapshot';
import { counterFor, encodingForModel, type Tokenizer } from '../tokens';
import { mergeDecisions, type Decisions, type SessionEvent } from '../types';
import { renderSendSection, renderSendTrace, type CarriedResult, type Rebuild, type SendManifest, type SendSection, type Stopped } from './record';
import { admitToolResults, type AdmittedResult } from './results';
import { runTool } from './tools';

/**
 * The send loop. Each step rebuilds the whole request from the snapshot plus the loop's own session events (the
 * chain runs again: session groups, fill, enforce), sends exactly the bytes it counted, and, when the model asks
 * for read-only tools, runs them, admits their results through offloading and trimming, and records call and
 * result as a session group for the next rebuild. A step limit bounds it; every step has its manifest and trace.
 */

export const DEFAULT_MAX_STEPS = 6;
/** Session source of the loop's events when the workspace has no stored session. */
export const LOOP_SESSION_SOURCE = 'session';

export interface SendLoopOptions {
  provider: Provider;
  model?: string;
  encoding?: string;
  tokenizer?: Tokenizer;
  maxSteps?: number;
  signal?: AbortSignal;
  clock?: Clock;
  retry?: RetryPolicy;
  /** Where offloaded tool results go (default: the policy's offload folder in the workspace; the host passes its storage). */
  offload?: OffloadStore;
  summaries?: AssembleOptions['summaries'];
  sessionStore?: AssembleOptions['sessionStore'];
  onText?: (delta: string) => void;
  onStep?: (step: StepRecord) => void;
  /** Retries, rebuilds and the step limit, as one-line notices. */
  onNotice?: (message: string) => void;
}

export interface StepRecord {
  step: number;
  assembly: Assembly;
  manifest: SendManifest;
  trace: string;
  /** The bytes that went on the wire (undefined when nothing was sent). */
  sent?: string;
  text: string;
  toolCalls: ToolCall[];
  /** This step's tool results as admitted into the next request. */
  results: AdmittedResult[];
  /** Tokens as the provider reported them for this step. */
  usage?: SendResult['usage'];
}

export interface SendOutcome {
  answer: string;
  stopped: Stopped;
  steps: StepRecord[];
  error?: ProviderError | ContextBudgetExceeded;
  /** The loop's session events (tool calls and results), in order. */
  events: SessionEvent[];
  manifest?: SendManifest;
  trace: string;
}

/** The smaller max_input after a context-length refusal: scaled by what the provider said, else by three quarters. */
export function smallerMaxInput(current: number, final: number, limit?: number, actual?: number): number {
  const base = Math.min(current, final);
  if (limit && actual && actual > limit) return Math.max(1, Math.floor((base * limit * 0.9) / actual));
  return Math.max(1, Math.floor(base * 0.75));
}

function narrowed(policy: Policy, limits: Provider['limits']): Policy {
  const cap = limits?.maxInputTokens !== undefined ? limits.maxInputTokens - policy.envelope.margin : undefined;
  return cap !== undefined && cap < maxInput(policy) ? withMaxInput(policy, Math.max(1, cap)) : policy;
}

/** What rebuilds each step's request: the folder's engine (engine.ts). */
export interface Assembler {
  assemble(snapshot: Snapshot, options?: AssembleRequest): Assembly;
}

/** The loop over a snapshot; `engine` (the folder's) rebuilds each step's request. Surfaces call `engine.send`. */
export async function sendLoop(engine: Assembler, snapshot: Snapshot, options: SendLoopOptions): Promise<SendOutcome> {
  const { provider } = options;
  const clock = options.clock ?? systemClock;
  const now = () => new Date(clock.now());
  const model = options.model ?? DEFAULT_MODEL;
  const maxSteps = Math.max(1, options.maxSteps ?? DEFAULT_MAX_STEPS);
  const tokenizer = options.tokenizer ?? counterFor(encodingForModel(model, options.encoding).encoding);
  const { offload: o } = snapshot.policy;
  const store = options.offload ?? openOffloadStore(path.resolve(snapshot.root, o.dir), { maxAgeDays: o.retention_days, maxMegabytes: o.retention_mb }, now);
  const notice = (m: string) => options.onNotice?.(m);
  let policy = narrowed(snapshot.policy, provider.limits);
  /** What the provider's own count is held to: the envelope before any rebuild (a rebuild shrinks only our budget). */
  const providerMax = maxInput(policy);
  let rebuilt: Rebuild | undefined;
  const events: SessionEvent[] = [];
  const steps: StepRecord[] = [];
  const usedIds = new Set<string>();
  let carried: AdmittedResult[] = [];
  /** Decisions about the results the next request carries: offloads and read_document's selections and refusals. */
  let carriedDecisions: Decisions = mergeDecisions();

  const build = () =>
    engine.assemble(
      { ...snapshot, policy, session: [...snapshot.session, ...events], sessionSource: snapshot.sessionSource ?? LOOP_SESSION_SOURCE },
      { model, shape: provider.shape, stream: provider.streams, encoding: options.encoding, tokenizer: options.tokenizer, now, summaries: options.summaries ?? false, sessionStore: options.sessionStore, offloadStore: store },
    );
  const finish = (stopped: Stopped, error?: SendOutcome['error']): SendOutcome => {
    const last = steps[steps.length - 1];
    return {
      answer: last?.text ?? '',
      stopped,
      steps,
      error,
      events,
      manifest: last?.manifest,
      trace: renderSendTrace(steps.map((s) => s.trace), stopped, maxSteps),
    };
  };

  for (let step = 1; step <= maxSteps; step++) {
    let assembly: Assembly;
    let result: SendResult | undefined;
    let error: ProviderError | undefined;
    let providerCount: number | undefined;
    let rebuiltHere: Rebuild | undefined;
    const attempts: AttemptRecord[] = [];
    for (;;) {
      try {
        assembly = build();
      } catch (e) {
        if (e instanceof ContextBudgetExceeded) return finish('refused', e);
        throw e;
      }
      const prepared: PreparedRequest = { shape: provider.shape, model, neutral: assembly.neutral, body: assembly.request, serialized: assembly.serialized, stream: provider.streams };
      const max = assembly.manifest.budget.max_input;
      try {
        if (provider.countTokens) {
          providerCount = await provider.countTokens(prepared, options.signal);
          if (providerCount > providerMax) {
            throw new ProviderError(provider.id, 'context_length', `${provider.id} counts ${providerCount} tokens, over max_input ${providerMax}`, {
              limit: providerMax,
              actual: providerCount,
            });
          }
        }
        result = await sendWithRetry(provider, prepared, {
          signal: options.signal,
          onText: options.onText,
          clock,
          retry: options.retry,
          onAttempt: (a) => a.outcome !== 'ok' && notice(`step ${step}, attempt ${a.attempt}: ${a.message}${a.waitMs !== undefined ? `; retrying in ${a.waitMs} ms` : ''}`),
        });
        attempts.push(...result.attempts);
        break;
      } catch (e) {
        if (!(e instanceof ProviderError)) throw e;
        attempts.push(...attemptsOf(e));
        if (e.kind === 'context_length' && !rebuilt) {
          const after = smallerMaxInput(max, assembly.manifest.budget.final, e.details.limit, e.details.actual);
          rebuilt = rebuiltHere = { reason: 'context length exceeded', max_input_before: max, max_input_after: after, provider_limit: e.details.limit, provider_count: e.details.actual };
          policy = withMaxInput(policy, after);
          notice(`step ${step}: ${e.message}; rebuilding once under max_input ${after} (was ${max})`);
          continue;
        }
        error = e;
        break;
      }
    }

    const calls = result ? result.toolCalls.map((c) => uniqueCall(c, usedIds, step)) : [];
    const section: SendSection = {
      provider: provider.id,
      endpoint: provider.endpoint,
      streaming: provider.streams,
      step,
      max_steps: maxSteps,
      sent: !provider.sendsNothing,
      request_bytes: Buffer.byteLength(assembly.serialized),
      sent_matches_request: result?.sent !== undefined ? result.sent === assembly.serialized : undefined,
      provider_count: providerCount,
      ...(result?.usage?.cachedTokens !== undefined ? { cached_tokens: result.usage.cachedTokens } : {}),
      rebuilt: rebuiltHere,
      attempts,
      carried: carried.map(carriedOf),
      carried_trimmed: carriedDecisions.trimmed,
      answer: result ? { stop: result.stop, text_chars: result.text.length, tool_calls: calls } : undefined,
      error: error?.message,
    };
    const manifest: SendManifest = {
      ...assembly.manifest,
      selected: [...assembly.manifest.selected, ...carriedDecisions.selected],
      rejected: [...assembly.manifest.rejected, ...carriedDecisions.rejected],
      offloaded: [...assembly.manifest.offloaded, ...carriedDecisions.offloaded],
      warnings: rebuiltHere
        ? [...assembly.manifest.warnings, { source: `provider:${provider.id}`, message: `${rebuiltHere.reason}: rebuilt once under max_input ${rebuiltHere.max_input_after} (was ${rebuiltHere.max_input_before})` }]
        : assembly.manifest.warnings,
      send: section,
    };
    const record: StepRecord = {
      step,
      assembly,
      manifest,
      trace: `${renderTrace(manifest)}\n${renderSendSection(section)}`,
      sent: result?.sent,
      text: result?.text ?? '',
      toolCalls: calls,
      results: [],
      usage: result?.usage,
    };
    steps.push(record);
    if (error || !result) {
      options.onStep?.(record);
      return finish('error', error);
    }
    if (result.stop === 'dry_run') return done(record, 'dry_run');
    if (calls.length === 0) return done(record, result.stop === 'max_tokens' ? 'max_tokens' : 'answered');
    if (step === maxSteps) {
      notice(`step limit ${maxSteps} reached: the model still asked for ${calls.map((c) => c.name).join(', ')}; not run`);
      return done(record, 'step_limit');
    }
    const toolContext = { snapshot: { ...snapshot, policy }, tokenizer, offloadDir: store.dir };
    const outcomes = calls.map((call) => ({ call, outcome: runTool(call, toolContext) }));
    const admitted = admitToolResults(outcomes, { policy, tokenizer, store, display: (abs) => displayPath(snapshot.root, abs) });
    record.results = admitted.value;
    carried = admitted.value;
    carriedDecisions = mergeDecisions(admitted.decisions, ...outcomes.map((x) => x.outcome.decisions ?? {}));
    events.push(...stepEvents(step, result.text, admitted.value, now().toISOString()));
    options.onStep?.(record);
  }
  // Unreachable: the last step returns above.
  return finish('step_limit');

  function done(record: StepRecord, stopped: Stopped): SendOutcome {
    options.onStep?.(record);
    return finish(stopped);
  }
}

/** Tool-call ids must be unique across the loop's history; servers that reuse ids get a step suffix. */
function uniqueCall(call: ToolCall, used: Set<string>, step: number): ToolCall {
  let id = call.id || `call_s${step}`;
  while (used.has(id)) id = `${id}_s${step}`;
  used.add(id);
  return id === call.id ? call : { ...call, id };
}

function carriedOf(r: AdmittedResult): CarriedResult {
  return {
    tool: r.call.name,
    call_id: r.call.id,
    source: r.outcome.source,
    ok: r.outcome.ok,
    original_tokens: r.originalTokens,
    tokens: r.tokens,
    verdict: r.offloaded ? 'offloaded' : r.trimmed ? 'trimmed' : 'kept',
    path: r.offloaded ?? r.trimmed?.reference,
  };
}

/** One step's session events: the model's text (if any), then its tool calls with their admitted results. */
export function stepEvents(step: number, text: string, results: AdmittedResult[], ts: string): SessionEvent[] {
  const events: SessionEvent[] = [];
  if (text.trim()) events.push({ id: `loop-s${step}-text`, ts, type: 'assistant', text });
  results.forEach((r, i) => events.push({ id: `loop-s${step}-call${i + 1}`, ts, type: 'tool_call', call_id: r.call.id, tool: r.call.name, text: r.call.arguments }));
  results.forEach((r, i) => events.push({ id: `loop-s${step}-result${i + 1}`, ts, type: 'tool_result', call_id: r.call.id, tool: r.call.name, text: r.text }));
  return events;
}
