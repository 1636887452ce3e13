import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Keys } from './secret-key';
import { num } from '../core/report/trace';
import type { SessionStore } from '../core/session/store';
import { SESSION_FILE } from '../core/sources/snapshot';
import type { AssemblyState } from './assembly';
import { requireModel, VscodeLmProvider } from './lm';
import type { Settings } from './settings';
import { ensureSessionStore } from './worker/exchange';
import type { SendWorkerIn, SendWorkerResult, WorkerSnapshot } from './worker/protocol';
import { sendInWorker, type SendHandlers } from './worker/send-client';
import { revive } from './worker/serialize';

export { ensureSessionStore };

export interface SendInput {
  state: Extract<AssemblyState, { kind: 'ok' }>;
  settings: Settings;
  /** The same inputs the preview was assembled from. */
  snapshot: WorkerSnapshot & { root: string };
  /** The editor's session store, where the exchange is recorded after a successful send. */
  sessionStore: SessionStore;
  /** dist/send-worker.js: the send loop runs there, for every provider. */
  sendWorkerScript: string;
  /** The folder's engine, whose host keeps the keys (the editor host: SecretStorage). */
  keys: Keys;
  outputDir: string;
  token: vscode.CancellationToken;
  onText: (text: string) => void;
}

export { secretKey } from './secret-key';

/** The key for an HTTP provider, from the host's keys (SecretStorage only); a local server (base URL) may need none. */
export async function apiKeyFor(settings: Settings, keys: Keys): Promise<string | undefined> {
  const apiKey = await keys.secret(settings.provider);
  if (!apiKey && !settings.baseUrl) throw new Error(`no API key for ${settings.provider}: run "Context Control: Set API Key", or set contextControl.baseUrl for a local server.`);
  return apiKey;
}

/** The provider as it crosses to the send worker, and the host's model when it is vscode.lm (the worker calls it back). */
export async function providerForWorker(settings: Settings, keys: Keys): Promise<{ provider: Extract<SendWorkerIn, { type: 'send' }>['provider']; lm?: VscodeLmProvider }> {
  if (settings.provider === 'vscode-lm') {
    const lm = new VscodeLmProvider(await requireModel(settings.model));
    return { provider: { id: 'vscode-lm', endpoint: lm.endpoint, maxInputTokens: lm.limits.maxInputTokens }, lm };
  }
  if (settings.provider === 'dry-run') throw new Error('the dry-run provider sends nothing');
  return { provider: { id: settings.provider, apiKey: await apiKeyFor(settings, keys), baseUrl: settings.baseUrl || undefined } };
}

/** Send the assembled request with the configured provider; returns a one-line note for the panel. */
export type SendNote = { note: string; usage?: SendWorkerResult['usage']; /** The dry run's request file. */ file?: string };

export async function sendRequest(input: SendInput): Promise<SendNote> {
  const { state, settings } = input;
  fs.mkdirSync(input.outputDir, { recursive: true });
  if (settings.provider === 'dry-run') {
    const file = path.join(input.outputDir, 'request.json');
    fs.writeFileSync(file, state.assembly.serialized);
    const b = state.assembly.manifest.budget;
    input.onText(`Dry run: nothing was sent.\nThe exact request (${num(Buffer.byteLength(state.assembly.serialized))} bytes, ${num(b.final)} / ${num(b.max_input)} tokens) was written to the file linked below.\n`);
    return { note: 'Dry run: the request was written to', file };
  }
  const controller = new AbortController();
  const sub = input.token.onCancellationRequested(() => controller.abort());
  const notices: string[] = [];
  const handlers: SendHandlers = {
    onText: input.onText,
    onNotice: (m) => {
      notices.push(m);
      input.onText(`\n[${m}]\n`);
    },
    signal: controller.signal,
  };
  try {
    // The loop rebuilds the request from the same inputs as the preview, on every step, and re-checks the budget.
    const { provider, lm } = await providerForWorker(settings, input.keys);
    const result = await sendInWorker(
      input.sendWorkerScript,
      {
        snapshot: input.snapshot,
        provider,
        model: settings.model,
        encoding: settings.encoding,
        recordDir: input.outputDir,
        sessionStore: input.sessionStore.ref(),
        // Recorded in the editor's store: the workspace's own session file (sending needs a trusted workspace).
        record: { store: input.sessionStore.file, seed: path.join(input.snapshot.root, SESSION_FILE) },
      },
      { ...handlers, lm },
    );
    if (result.error) throw revive(result.error);
    const cached = result.usage?.cachedTokens ? ` · ${num(result.usage.cachedTokens)} input tokens from the provider's cache` : '';
    return { note: `${settings.provider} · ${settings.model} · ${result.steps} step${result.steps === 1 ? '' : 's'} · stopped: ${result.stopped}${cached}${notices.length ? ` · ${notices.length} notice(s)` : ''}`, usage: result.usage };
  } finally {
    sub.dispose();
  }
}
