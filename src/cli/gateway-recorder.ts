import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DecisionStore } from '../core/gateway/decisions';
import { planOrOriginal, VIEWS, type DurableText, type GatewayMode, type Plan } from '../core/gateway/plan';
import { buildRecord } from '../core/gateway/record';
import { writeCallRecord } from '../core/gateway/records';
import { newSessionEvents, sessionEventsOf } from '../core/gateway/session-feed';
import { appendSessionEvents, readSessionFile } from '../core/session/file';
import type { Usage } from '../core/gateway/usage';
import type { Api, JsonObject } from '../core/gateway/wire';
import type { Policy } from '../core/policy';
import { counterFor, encodingForModel } from '../core/tokens';
import { IdleQueue } from './gateway-queue';

/**
 * The gateway's records, written off the path of the calls: in a worker thread (gateway-worker.ts) when one can
 * start, else in the gateway's own thread through the idle queue. A job is plain data: what was received and sent,
 * the plan without its view (rebuilt from the sent body for counting), the answer's figures. An observed call is
 * planned here too (its bytes went unchanged): the recorder keeps its own store for the prefix it reports.
 */

/** A plan without its view, and without the sent body (the job's `sent`: it crosses to the worker once). */
export type PlanData = Omit<Plan, 'view' | 'body'>;

export interface RecordJob {
  n: number;
  started: number;
  ended: number;
  mode: GatewayMode;
  api: Api;
  path: string;
  /** The received body: its text, or its bytes (observe mode: decoded by the recorder, not on the calls' path). */
  received: string | Uint8Array;
  /** The sent body, when it differs from the received one. */
  sent?: string;
  plan?: PlanData;
  /** Observe mode: plan the call here, with these. */
  observe?: { policy: Policy; durable: DurableText[]; track: boolean };
  /** An internal error of the gateway (the call went unchanged, or was refused when fail-closed). */
  error?: string;
  /** The upstream could not be reached, or the client left before the answer ended. */
  upstreamError?: string;
  status?: number;
  usage?: Usage;
  events?: number;
  recordDir: string;
  keep: number;
}

export interface RecorderState {
  store: DecisionStore;
  /** Session event ids already in each feed file (read from it once), so a resent history adds nothing. */
  seen?: Map<string, Set<string>>;
}

/** The feed file beside the records: `.context/gateway/session.jsonl` (session-feed.ts). */
export const FEED_FILE = 'session.jsonl';

/**
 * The agent's turns of this call appended to the session feed, each once. Never for count_tokens (not a turn) or a
 * body that is not JSON. A failure is a log line: the record is written either way.
 */
function feedSession(job: RecordJob & { received: string }, plan: Plan | undefined, state: RecorderState): string {
  if (!plan?.conversation || /count_tokens/.test(job.path)) return '';
  try {
    const file = path.join(job.recordDir, FEED_FILE);
    state.seen ??= new Map();
    let seen = state.seen.get(file);
    if (!seen) {
      seen = new Set(readSessionFile(file, FEED_FILE).events.map((e) => e.id));
      state.seen.set(file, seen);
    }
    const events = newSessionEvents(sessionEventsOf(job.api, JSON.parse(job.received) as JsonObject, plan.conversation, new Date(job.started).toISOString(), seen), seen);
    if (events.length > 0) appendSessionEvents(file, events, path.dirname(path.dirname(job.recordDir)));
    return '';
  } catch (e) {
    return `, session feed not written: ${(e as Error).message}`;
  }
}

/** Build and write one record; returns the log line. */
export function runRecordJob(bytesJob: RecordJob, state: RecorderState): string {
  const job = { ...bytesJob, received: typeof bytesJob.received === 'string' ? bytesJob.received : Buffer.from(bytesJob.received.buffer, bytesJob.received.byteOffset, bytesJob.received.byteLength).toString('utf8') };
  let plan: Plan | undefined;
  let error = job.error ?? (job.upstreamError ? `upstream: ${job.upstreamError}` : undefined);
  const tokenizer = counterFor(encodingForModel(job.plan?.model).encoding);
  if (job.observe) {
    const r = planOrOriginal(job.api, job.received, {
      mode: 'observe',
      policy: job.observe.policy,
      tokenizer,
      durable: job.observe.durable,
      store: state.store,
      track: job.observe.track,
      offload: () => {
        throw new Error('observe mode stores nothing');
      },
      readAgentOutput: () => ({ refused: 'observe mode reads nothing' }),
    });
    plan = r.plan;
    error = error ?? r.error;
  } else if (job.plan) {
    plan = { ...job.plan, ...(job.sent !== undefined ? { body: job.sent } : {}), view: VIEWS[job.api](JSON.parse(job.sent ?? job.received) as JsonObject) };
  }
  const record = buildRecord({ id: `${job.started}-${job.n}`, at: new Date(job.started), mode: job.mode, api: job.api, path: job.path, received: job.received, plan, error, status: job.status, duration_ms: job.ended - job.started, events: job.events, usage: job.usage, tokenizer: counterFor(encodingForModel(plan?.model).encoding) });
  writeCallRecord(job.recordDir, record, job.n, job.keep);
  const fed = feedSession(job, plan, state);
  return `gateway: POST ${job.path} ${plan?.model ?? '?'} ${job.status ?? '-'} ${record.duration_ms} ms, ${record.changes.length} change(s)${job.error ? `, forwarded unchanged after an internal error: ${job.error}` : ''}${job.upstreamError ? `, ${job.upstreamError}` : ''}${fed}`;
}

export interface Recorder {
  push(job: RecordJob): void;
  /** Every job pushed so far is written. */
  readonly quiet: boolean;
  close(): Promise<void>;
}

/** In the gateway's thread, when no call is in flight. */
export function inlineRecorder(queue: IdleQueue, log: (s: string) => void): Recorder {
  const state: RecorderState = { store: new DecisionStore() };
  let pending = 0;
  return {
    push(job) {
      pending++;
      queue.push(() => {
        try {
          log(runRecordJob(job, state));
        } catch (e) {
          log(`gateway: record not written: ${(e as Error).message}`);
        } finally {
          pending--;
        }
      });
    },
    get quiet() {
      return pending === 0;
    },
    close: async () => undefined,
  };
}

/**
 * In a worker thread (gateway-worker.js beside this file, in dist/ or out/); undefined when it cannot start. Jobs
 * reach it through the idle queue too: on a machine with few free cores, the worker's CPU would otherwise be taken
 * from the calls in flight (50 streams at once and their 50 records).
 */
export function workerRecorder(queue: IdleQueue, log: (s: string) => void): Recorder | undefined {
  let worker: Worker;
  try {
    worker = new Worker(path.join(__dirname, 'gateway-worker.js'));
  } catch {
    return undefined;
  }
  let pending = 0;
  worker.unref();
  worker.on('message', (m: { log: string }) => {
    pending--;
    log(m.log);
  });
  let stopped = false;
  worker.on('error', (e) => log(`gateway: the record worker failed: ${e.message}`));
  worker.on('exit', () => (stopped = true));
  return {
    push(job) {
      pending++;
      // Received bytes of their own cross without a copy; a slice of a shared pool (a small body) is copied first.
      queue.push(() => {
        const bytes = job.received;
        if (typeof bytes === 'string') worker.postMessage(job);
        else {
          const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
          worker.postMessage({ ...job, received: own }, [own.buffer as ArrayBuffer]);
        }
      });
    },
    get quiet() {
      return pending === 0;
    },
    close: async () => {
      // The records still queued (calls that ended as the gateway stopped) are written first, within 5 s.
      for (const until = Date.now() + 5000; pending > 0 && !stopped && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
      await worker.terminate();
    },
  };
}
