import { Worker } from 'node:worker_threads';
import { ContextBudgetExceeded, InputError } from '../../core/errors';
import type { AssembleRequest, AssembleResponse, SerializedError } from './protocol';

export class WorkerError extends Error {}

const RUN_TIMEOUT_MS = 120_000;
/** An idle worker (and its ~150 MB of tokenizer tables) is let go after this long; the next run starts a new one. */
const IDLE_MS = 5 * 60_000;

/** Rebuild the core's error classes on this side of the thread. */
export function revive(e: SerializedError): Error {
  if (e.name === 'ContextBudgetExceeded') return new ContextBudgetExceeded(e.maxInput ?? 0, e.mandatoryTokens ?? 0, e.blocks ?? []);
  if (e.name === 'InputError') return new InputError(e.message, e.file, e.line, e.column);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

/** One long-lived worker; requests are answered in order. A crashed worker is replaced on the next request. */
export class AssemblyWorker {
  private worker: Worker | undefined;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (r: AssembleResponse) => void; reject: (e: Error) => void }>();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly script: string) {}

  run(request: Omit<AssembleRequest, 'id'>, timeoutMs = RUN_TIMEOUT_MS): Promise<AssembleResponse> {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.ensure();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      // A run that never answers must not block every later one: give up, and start a fresh worker next time.
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new WorkerError(`assembling took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`));
        void worker.terminate();
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      worker.postMessage({ ...request, id });
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.on('message', (res: AssembleResponse) => {
      this.waiting.get(res.id)?.resolve(res);
      this.waiting.delete(res.id);
      if (this.waiting.size === 0) {
        if (this.idle) clearTimeout(this.idle);
        this.idle = setTimeout(() => this.dispose(), IDLE_MS);
        this.idle.unref();
      }
    });
    const fail = (e: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const w of this.waiting.values()) w.reject(new WorkerError(`the assembly worker stopped: ${e.message}`));
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  dispose(): void {
    if (this.idle) clearTimeout(this.idle);
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
