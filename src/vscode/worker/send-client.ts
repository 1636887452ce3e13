import { Worker } from 'node:worker_threads';
import type { CompareResult } from '../../core/compare/run';
import type { Provider } from '../../core/providers/provider';
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
type Route = { message: (m: SendWorkerOut) => void; fail: (e: Error) => void };

/** An idle send worker (and its warm rank tables) is let go after this long; the next send starts a new one. */
const IDLE_MS = 5 * 60_000;

/** One send worker per script, kept warm between sends; each send or comparison is routed by its id. */
class SendWorker {
  private worker: Worker | undefined;
  private next = 1;
  private readonly routes = new Map<number, Route>();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly script: string) {}

  open(route: Route): { id: number; post: (m: SendWorkerIn) => void; close: () => void } {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.ensure();
    const id = this.next++;
    this.routes.set(id, route);
    return {
      id,
      post: (m) => worker.postMessage(m),
      close: () => {
        this.routes.delete(id);
        if (this.routes.size) return;
        this.idle = setTimeout(() => this.dispose(), IDLE_MS);
        this.idle.unref();
      },
    };
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.on('message', (m: SendWorkerOut) => this.routes.get(m.id)?.message(m));
    const fail = (e: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const r of [...this.routes.values()]) r.fail(e);
      this.routes.clear();
    };
    worker.on('error', (e) => fail(new Error(`the send worker failed: ${e.message}`)));
    worker.on('exit', (code) => fail(new Error(`the send worker stopped (exit code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}

const workers = new Map<string, SendWorker>();
function workerFor(script: string): SendWorker {
  let w = workers.get(script);
  if (!w) workers.set(script, (w = new SendWorker(script)));
  return w;
}

/** Answer one of the worker's model calls with the host's provider; text streams back as it arrives. */
async function answer(post: (m: SendWorkerIn) => void, m: Lm, h: SendHandlers): Promise<void> {
  const reply = (r: Omit<Extract<SendWorkerIn, { type: 'lm-done' }>, 'type' | 'id' | 'call'>) => post({ type: 'lm-done', id: m.id, call: m.call, ...r });
  try {
    if (!h.lm) throw new Error('no host model for this send');
    if (m.op === 'count') return reply({ result: await h.lm.countTokens!(m.request, h.signal) });
    const result = await h.lm.send(m.request, { signal: h.signal, onText: (text) => post({ type: 'lm-text', id: m.id, call: m.call, text }) });
    reply({ result });
  } catch (e) {
    reply({ error: serialize(e) });
  }
}

/** Run one send in the send worker. */
export function sendInWorker(script: string, request: Omit<Extract<SendWorkerIn, { type: 'send' }>, 'type' | 'id'>, h: SendHandlers): Promise<SendWorkerResult> {
  return new Promise<SendWorkerResult>((resolve, reject) => {
    const channel = workerFor(script).open({
      message: (m) => {
        if (m.type === 'text') h.onText(m.text);
        else if (m.type === 'notice') h.onNotice(m.message);
        else if (m.type === 'progress') h.onProgress?.(m.message);
        else if (m.type === 'lm') void answer(channel.post, m, h);
        else if (m.type === 'done') {
          finish();
          resolve(m.result);
        }
      },
      fail: (e) => {
        finish();
        reject(e);
      },
    });
    const onAbort = () => channel.post({ type: 'cancel', id: channel.id });
    h.signal.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      h.signal.removeEventListener('abort', onAbort);
      channel.close();
    };
    channel.post({ type: 'send', id: channel.id, ...request });
  });
}

/** Compare Policies in the send worker (it holds the HTTP providers when the variants are sent). */
export function compareInWorker(script: string, input: CompareArgs): Promise<CompareResult> {
  return new Promise<CompareResult>((resolve, reject) => {
    const channel = workerFor(script).open({
      message: (m) => {
        if (m.type !== 'compared') return;
        channel.close();
        if (m.result) resolve(m.result);
        else reject(revive(m.error ?? { name: 'Error', message: 'the comparison gave no result' }));
      },
      fail: (e) => {
        channel.close();
        reject(e);
      },
    });
    channel.post({ type: 'compare', id: channel.id, input });
  });
}
