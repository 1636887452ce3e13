/**
 * Sends off the extension host's thread: the send loop rebuilds and counts the request every step, which must not
 * freeze the editor. HTTP providers (OpenAI-compatible, Anthropic) run here whole; vscode.lm through RemoteProvider,
 * which asks the host for each model call. One worker per send; no `vscode`.
 */
import { parentPort } from 'node:worker_threads';
import { AnthropicProvider } from '../../core/providers/anthropic';
import { OpenAIProvider } from '../../core/providers/openai';
import type { Provider } from '../../core/providers/provider';
import { writeRecord } from '../../core/report/record';
import { appendSessionEvents } from '../../core/session/file';
import { runCompare } from './compare-run';
import { ensureSessionStore, exchangeEvents } from './exchange';
import { engineFor, load, resultOf } from './load';
import type { HttpProviderSpec, SendWorkerIn, SendWorkerOut } from './protocol';
import { RemoteProvider } from './remote-provider';
import { sentSources } from './render-context';
import { serialize } from './serialize';
import { installDiskHost } from '../../host/disk';

// The engines of this bundle take their host; code it calls outside an engine reaches the default one: the disk.
installDiskHost();

const controllers = new Map<number, AbortController>();
const remotes = new Map<number, RemoteProvider>();
const post = (m: SendWorkerOut) => parentPort?.postMessage(m);

function httpProvider(p: HttpProviderSpec): Provider {
  const options = { apiKey: p.apiKey, baseUrl: p.baseUrl };
  return p.id === 'anthropic' ? new AnthropicProvider(options) : new OpenAIProvider(options);
}

function providerOf(m: Extract<SendWorkerIn, { type: 'send' }>): Provider {
  const p = m.provider;
  if (p.id !== 'vscode-lm') return httpProvider(p);
  const remote = new RemoteProvider(m.id, p.endpoint, p.maxInputTokens, post);
  remotes.set(m.id, remote);
  return remote;
}

/** Compare Policies with sends (Send Variants): each variant once with the HTTP provider. */
async function compareVariants(m: Extract<SendWorkerIn, { type: 'compare' }>): Promise<void> {
  const spec = m.input.provider;
  try {
    post({ type: 'compared', id: m.id, result: await runCompare(m.input, spec && (() => httpProvider(spec))) });
  } catch (e) {
    post({ type: 'compared', id: m.id, error: serialize(e) });
  }
}

async function send(m: Extract<SendWorkerIn, { type: 'send' }>): Promise<void> {
  const controller = new AbortController();
  controllers.set(m.id, controller);
  try {
    const snapshot = load(m.snapshot, m.patch);
    const engine = engineFor(m.snapshot.root);
    const outcome = await engine.send(snapshot, {
      provider: providerOf(m),
      model: m.model,
      encoding: m.encoding,
      summaries: m.patch ? undefined : engine.summaries(m.snapshot.sessionFile),
      sessionStore: m.sessionStore,
      signal: controller.signal,
      onText: (text) => post({ type: 'text', id: m.id, text }),
      onNotice: (message) => post({ type: 'notice', id: m.id, message }),
      onStep: (s) => s.toolCalls.length && post({ type: 'progress', id: m.id, message: `Running ${s.toolCalls.map((c) => c.name).join(', ')}…` }),
    });
    const last = outcome.steps.at(-1);
    if (m.recordDir) writeRecord(m.recordDir, { request: last?.sent, manifest: outcome.manifest, trace: outcome.trace });
    if (m.record && !outcome.error) {
      ensureSessionStore(m.record.store, m.record.seed);
      appendSessionEvents(m.record.store, exchangeEvents(snapshot.task.text, outcome, new Date()));
    }
    post({
      type: 'done',
      id: m.id,
      result: {
        steps: outcome.steps.length,
        stopped: outcome.stopped,
        sent: last?.sent,
        usage: last?.usage,
        manifest: outcome.manifest,
        trace: outcome.trace,
        error: outcome.error ? serialize(outcome.error) : undefined,
        answer: outcome.answer,
        events: outcome.events,
        last: last && outcome.manifest ? resultOf({ ...last.assembly, manifest: outcome.manifest, trace: outcome.trace }, snapshot) : undefined,
        references: sentSources(outcome.steps.flatMap((s) => [...s.manifest.selected, ...s.manifest.trimmed]), snapshot.files),
        providerCount: outcome.manifest?.send?.provider_count,
      },
    });
  } catch (e) {
    post({ type: 'done', id: m.id, result: { steps: 0, stopped: 'error', trace: '', error: serialize(e), answer: '', events: [] } });
  } finally {
    controllers.delete(m.id);
    remotes.delete(m.id);
  }
}

parentPort?.on('message', (m: SendWorkerIn) => {
  if (m.type === 'cancel') controllers.get(m.id)?.abort();
  else if (m.type === 'lm-text' || m.type === 'lm-done') remotes.get(m.id)?.receive(m);
  else if (m.type === 'compare') void compareVariants(m);
  else void send(m);
});
