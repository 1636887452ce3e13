import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AnthropicProvider } from '../core/providers/anthropic';
import { OpenAIProvider } from '../core/providers/openai';
import type { Provider } from '../core/providers/provider';
import { num } from '../core/report/trace';
import { sendLoop } from '../core/send/loop';
import { workspaceSummaries } from '../core/session/summary-store';
import { loadSnapshot, type SnapshotOptions } from '../core/sources/snapshot';
import type { AssemblyState } from './assembly';
import { findModel, VscodeLmProvider } from './lm';
import type { Settings } from './settings';

export interface SendInput {
  state: Extract<AssemblyState, { kind: 'ok' }>;
  settings: Settings;
  /** The same inputs the preview was assembled from. */
  snapshot: SnapshotOptions;
  secrets: vscode.SecretStorage;
  outputDir: string;
  token: vscode.CancellationToken;
  onText: (text: string) => void;
}

export const secretKey = (provider: string) => `contextControl.apiKey.${provider}`;

/** The provider for the settings. Keys come from SecretStorage only; a local server (base URL) may need none. */
async function providerFor(settings: Settings, secrets: vscode.SecretStorage): Promise<Provider> {
  const baseUrl = settings.baseUrl || undefined;
  if (settings.provider === 'vscode-lm') {
    const model = await findModel(settings.model);
    if (!model) throw new Error(`no VS Code language model named "${settings.model}". Run "Context Control: Select Language Model…".`);
    return new VscodeLmProvider(model);
  }
  const apiKey = await secrets.get(secretKey(settings.provider));
  if (!apiKey && !baseUrl) throw new Error(`no API key for ${settings.provider}: run "Context Control: Set API Key", or set contextControl.baseUrl for a local server.`);
  if (settings.provider === 'anthropic') return new AnthropicProvider({ apiKey, baseUrl });
  return new OpenAIProvider({ apiKey, baseUrl });
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
  const provider = await providerFor(settings, input.secrets);
  const controller = new AbortController();
  const sub = input.token.onCancellationRequested(() => controller.abort());
  const notices: string[] = [];
  try {
    // The loop rebuilds the request from the same inputs as the preview, on every step, and re-checks the budget.
    const snapshot = loadSnapshot(input.snapshot);
    const outcome = await sendLoop(snapshot, {
      provider,
      model: settings.model,
      encoding: settings.encoding,
      summaries: workspaceSummaries(snapshot.root),
      signal: controller.signal,
      onText: input.onText,
      onNotice: (m) => {
        notices.push(m);
        input.onText(`\n[${m}]\n`);
      },
    });
    const last = outcome.steps.at(-1);
    if (last?.sent !== undefined) fs.writeFileSync(path.join(input.outputDir, 'request.json'), last.sent);
    if (outcome.manifest) fs.writeFileSync(path.join(input.outputDir, 'manifest.json'), JSON.stringify(outcome.manifest, null, 2) + '\n');
    fs.writeFileSync(path.join(input.outputDir, 'trace.txt'), outcome.trace);
    if (outcome.error) throw outcome.error;
    return `${provider.id} · ${settings.model} · ${outcome.steps.length} step${outcome.steps.length === 1 ? '' : 's'} · stopped: ${outcome.stopped}${notices.length ? ` · ${notices.length} notice(s)` : ''}`;
  } finally {
    sub.dispose();
  }
}
