import { Worker } from 'node:worker_threads';
import type { Provider } from '../../core/providers/provider';
import type { CompareResult } from '../../core/compare/run';
import type { CompareArgs, SendWorkerIn, SendWorkerOut, SendWorkerResult } from './protocol';
import { revive, serialize } from './serialize';

export interface SendHandlers {
  onText: (text: string) => void;
  onNotice: (message: string) => void;
  /** Tools the loop runs between steps, as one-line progress. */
  onProgress?: (message: string) => void;
  /** Cancel: the worker aborts the request it is waiting on, and the host's model call is cancelled too. */
  signal: AbortSignal;
  /** vscode.lm: the model the worker's RemoteProvider calls through this thread. */
  lm?: Provider;
}

type Lm = Extract<SendWorkerOut, { type: 'lm' }>;

/** Answer one of the worker's model calls with the host's provider; text streams back as it arrives. */
async function answer(worker: Worker, m: Lm, h: SendHandlers): Promise<void> {
  const reply = (r: Omit<Extract<SendWorkerIn, { type: 'lm-done' }>, 'type' | 'id' | 'call'>) => worker.postMessage({ type: 'lm-done', id: m.id, call: m.call, ...r } satisfies SendWorkerIn);
  try {
    if (!h.lm) throw new Error('no host model for this send');
    if (m.op === 'count') return reply({ result: await h.lm.countTokens!(m.request, h.signal) });
    const result = await h.lm.send(m.request, { signal: h.signal, onText: (text) => worker.postMessage({ type: 'lm-text', id: m.id, call: m.call, text } satisfies SendWorkerIn) });
    reply({ result });
  } catch (e) {
    reply({ error: serialize(e) });
  }
}

/** Run one send in a fresh worker; it ends with the send. */
export function sendInWorker(script: string, request: Omit<Extract<SendWorkerIn, { type: 'send' }>, 'type' | 'id'>, h: SendHandlers): Promise<SendWorkerResult> {
  const worker = new Worker(script);
  const id = 1;
  return new Promise<SendWorkerResult>((resolve, reject) => {
    const onAbort = () => worker.postMessage({ type: 'cancel', id } satisfies SendWorkerIn);
    h.signal.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      h.signal.removeEventListener('abort', onAbort);
      void worker.terminate();
    };
    worker.on('message', (m: SendWorkerOut) => {
      if (m.type === 'text') h.onText(m.text);
      else if (m.type === 'notice') h.onNotice(m.message);
      else if (m.type === 'progress') h.onProgress?.(m.message);
      else if (m.type === 'lm') void answer(worker, m, h);
      else if (m.type === 'done') {
        finish();
        resolve(m.result);
      }
    });
    worker.on('error', (e) => {
      finish();
      reject(new Error(`the send worker failed: ${e.message}`));
    });
    worker.on('exit', (code) => reject(new Error(`the send worker stopped (exit code ${code})`)));
    worker.postMessage({ type: 'send', id, ...request } satisfies SendWorkerIn);
  });
}

/** Compare Policies in a fresh send worker (it holds the HTTP providers when the variants are sent). */
export function compareInWorker(script: string, input: CompareArgs): Promise<CompareResult> {
  const worker = new Worker(script);
  return new Promise<CompareResult>((resolve, reject) => {
    worker.on('message', (m: SendWorkerOut) => {
      if (m.type !== 'compared') return;
      void worker.terminate();
      if (m.result) resolve(m.result);
      else reject(revive(m.error ?? { name: 'Error', message: 'the comparison gave no result' }));
    });
    worker.on('error', (e) => reject(new Error(`the compare worker failed: ${e.message}`)));
    worker.on('exit', (code) => reject(new Error(`the compare worker stopped (exit code ${code})`)));
    worker.postMessage({ type: 'compare', id: 1, input } satisfies SendWorkerIn);
  });
}
