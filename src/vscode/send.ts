import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Policy } from '../core/policy';
import { num } from '../core/report/trace';
import { writeRecord } from '../core/report/record';
import { sendLoop } from '../core/send/loop';
import { workspaceSummaries } from '../core/session/summary-store';
import type { SessionStore } from '../core/session/store';
import { loadSnapshot, loadTask, type SnapshotOptions } from '../core/sources/snapshot';
import type { SessionEvent } from '../core/types';
import type { AssemblyState } from './assembly';
import { requireModel, VscodeLmProvider } from './lm';
import { sendInWorker } from './worker/send-client';
import type { Settings } from './settings';

export interface SendInput {
  state: Extract<AssemblyState, { kind: 'ok' }>;
  settings: Settings;
  /** The same inputs the preview was assembled from. */
  snapshot: SnapshotOptions & { policy: Policy };
  /** The editor's session store, where the exchange is recorded after a successful send. */
  sessionStore: SessionStore;
  /** dist/send-worker.js: the HTTP providers' loop runs there. */
  sendWorkerScript: string;
  secrets: vscode.SecretStorage;
  outputDir: string;
  token: vscode.CancellationToken;
  onText: (text: string) => void;
}

export const secretKey = (provider: string) => `contextControl.apiKey.${provider}`;

/** The key for an HTTP provider, from SecretStorage only; a local server (base URL) may need none. */
export async function apiKeyFor(settings: Settings, secrets: vscode.SecretStorage): Promise<string | undefined> {
  const apiKey = await secrets.get(secretKey(settings.provider));
  if (!apiKey && !settings.baseUrl) throw new Error(`no API key for ${settings.provider}: run "Context Control: Set API Key", or set contextControl.baseUrl for a local server.`);
  return apiKey;
}

interface Outcome {
  steps: number;
  stopped: string;
  sent?: string;
  manifest?: unknown;
  trace: string;
  error?: Error;
  answer: string;
  events: SessionEvent[];
}

/** Record the exchange in the editor's session store: the task, the loop's tool calls and results, the answer. */
export function recordExchange(store: SessionStore, task: string, outcome: Pick<Outcome, 'answer' | 'events'>, now: Date): void {
  const ts = now.toISOString();
  const stamp = ts.replace(/[-:.TZ]/g, '');
  const events: SessionEvent[] = [{ id: `u${stamp}`, ts, type: 'user', text: task }, ...outcome.events];
  if (outcome.answer) events.push({ id: `a${stamp}`, ts, type: 'assistant', text: outcome.answer });
  store.append(events);
}

/** vscode.lm lives in this process, so its loop runs here; the model call is what takes the time. */
async function sendWithVscodeLm(input: SendInput, signal: AbortSignal, onNotice: (m: string) => void): Promise<Outcome> {
  const model = await requireModel(input.settings.model);
  const snapshot = loadSnapshot(input.snapshot);
  const outcome = await sendLoop(snapshot, {
    provider: new VscodeLmProvider(model),
    model: input.settings.model,
    encoding: input.settings.encoding,
    summaries: workspaceSummaries(snapshot.root, input.snapshot.sessionFile),
    sessionStore: input.sessionStore.ref(),
    signal,
    onText: input.onText,
    onNotice,
  });
  return {
    steps: outcome.steps.length,
    stopped: outcome.stopped,
    sent: outcome.steps.at(-1)?.sent,
    manifest: outcome.manifest,
    trace: outcome.trace,
    error: outcome.error,
    answer: outcome.answer,
    events: outcome.events,
  };
}

/** Send the assembled request with the configured provider; returns a one-line note for the panel. */
export async function sendRequest(input: SendInput): Promise<string> {
  const { state, settings } = input;
  fs.mkdirSync(input.outputDir, { recursive: true });
  if (settings.provider === 'dry-run') {
    const file = path.join(input.outputDir, 'request.json');
    fs.writeFileSync(file, state.assembly.serialized);
    const b = state.assembly.manifest.budget;
    input.onText(`Dry run: nothing was sent.\nThe exact request (${num(Buffer.byteLength(state.assembly.serialized))} bytes, ${num(b.final)} / ${num(b.max_input)} tokens) was written to ${file}.\n`);
    return `Dry run written to ${file}`;
  }
  const controller = new AbortController();
  const sub = input.token.onCancellationRequested(() => controller.abort());
  const notices: string[] = [];
  const onNotice = (m: string) => {
    notices.push(m);
    input.onText(`\n[${m}]\n`);
  };
  try {
    // The loop rebuilds the request from the same inputs as the preview, on every step, and re-checks the budget.
    let outcome: Outcome;
    if (settings.provider === 'vscode-lm') outcome = await sendWithVscodeLm(input, controller.signal, onNotice);
    else {
      const result = await sendInWorker(
        input.sendWorkerScript,
        {
          snapshot: input.snapshot,
          provider: { id: settings.provider, apiKey: await apiKeyFor(settings, input.secrets), baseUrl: settings.baseUrl || undefined },
          model: settings.model,
          encoding: settings.encoding,
          sessionStore: input.sessionStore.ref(),
        },
        { onText: input.onText, onNotice, signal: controller.signal },
      );
      outcome = { ...result, error: result.error && Object.assign(new Error(result.error.message), { name: result.error.name }) };
    }
    writeRecord(input.outputDir, { request: outcome.sent, manifest: outcome.manifest, trace: outcome.trace });
    if (outcome.error) throw outcome.error;
    recordExchange(input.sessionStore, loadTask(input.snapshot.root, input.snapshot.task, input.snapshot.cwd).text, outcome, new Date());
    return `${settings.provider} · ${settings.model} · ${outcome.steps} step${outcome.steps === 1 ? '' : 's'} · stopped: ${outcome.stopped}${notices.length ? ` · ${notices.length} notice(s)` : ''}`;
  } finally {
    sub.dispose();
  }
}
