import { Worker } from 'node:worker_threads';
import type { SendWorkerIn, SendWorkerOut, SendWorkerResult } from './protocol';

export interface SendHandlers {
  onText: (text: string) => void;
  onNotice: (message: string) => void;
  /** Cancel: the worker aborts the request it is waiting on. */
  signal: AbortSignal;
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
      else {
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
