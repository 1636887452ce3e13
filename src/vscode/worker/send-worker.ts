/**
 * Sends with the HTTP providers (OpenAI-compatible, Anthropic) off the extension host's thread: the send loop
 * rebuilds and counts the request every step, which must not freeze the editor. One worker per send; no `vscode`.
 */
import { parentPort } from 'node:worker_threads';
import { AnthropicProvider } from '../../core/providers/anthropic';
import { OpenAIProvider } from '../../core/providers/openai';
import { sendLoop } from '../../core/send/loop';
import { workspaceSummaries } from '../../core/session/summary-store';
import { loadSnapshot } from '../../core/sources/snapshot';
import type { SendWorkerIn, SendWorkerOut } from './protocol';

const controllers = new Map<number, AbortController>();
const post = (m: SendWorkerOut) => parentPort?.postMessage(m);

parentPort?.on('message', async (m: SendWorkerIn) => {
  if (m.type === 'cancel') {
    controllers.get(m.id)?.abort();
    return;
  }
  const controller = new AbortController();
  controllers.set(m.id, controller);
  try {
    const snapshot = loadSnapshot(m.snapshot);
    const options = { apiKey: m.provider.apiKey, baseUrl: m.provider.baseUrl };
    const provider = m.provider.id === 'anthropic' ? new AnthropicProvider(options) : new OpenAIProvider(options);
    const outcome = await sendLoop(snapshot, {
      provider,
      model: m.model,
      encoding: m.encoding,
      summaries: workspaceSummaries(snapshot.root, m.snapshot.sessionFile),
      sessionStore: m.sessionStore,
      signal: controller.signal,
      onText: (text) => post({ type: 'text', id: m.id, text }),
      onNotice: (message) => post({ type: 'notice', id: m.id, message }),
    });
    post({
      type: 'done',
      id: m.id,
      result: {
        steps: outcome.steps.length,
        stopped: outcome.stopped,
        sent: outcome.steps.at(-1)?.sent,
        manifest: outcome.manifest,
        trace: outcome.trace,
        error: outcome.error ? { name: outcome.error.name, message: outcome.error.message } : undefined,
        answer: outcome.answer,
        events: outcome.events,
      },
    });
  } catch (e) {
    post({ type: 'done', id: m.id, result: { steps: 0, stopped: 'error', trace: '', error: { name: (e as Error).name, message: (e as Error).message }, answer: '', events: [] } });
  } finally {
    controllers.delete(m.id);
  }
});
