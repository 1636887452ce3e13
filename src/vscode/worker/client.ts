import { Worker } from 'node:worker_threads';
import type { OpArgs, OpName, OpRequest, OpResponse, OpResult } from './ops-protocol';
import type { SerializedError } from './protocol';
import { receivedResult } from './posted-assembly';
import { revive } from './serialize';

export class WorkerError extends Error {}

/** A worker's refusal or bad input, with the snapshot it had read (a refusal still has an index to show). */
export class OpFailed extends Error {
  constructor(readonly error: SerializedError) {
    super(error.message);
  }
}

const RUN_TIMEOUT_MS = 120_000;
/** An idle worker (and its ~150 MB of tokenizer tables) is let go after this long; the next run starts a new one. */
const IDLE_MS = 5 * 60_000;

/**
 * One long-lived worker that runs the chain for the extension host: requests are answered in order, by name
 * (ops-protocol.ts). A crashed worker is replaced on the next request.
 */
export class AssemblyWorker {
  private worker: Worker | undefined;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (r: OpResponse) => void; reject: (e: Error) => void }>();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly script: string) {}

  /** Whether a worker is running (an idle one was let go: it holds no engine). */
  get running(): boolean {
    return !!this.worker;
  }

  /** Run `op` in the worker; its refusal or error comes back as OpFailed with the serialized error. */
  async call<K extends OpName>(op: K, args: OpArgs<K>, timeoutMs = RUN_TIMEOUT_MS): Promise<OpResult<K>> {
    const res = await this.post({ op, args } as Omit<OpRequest<K>, 'id'>, timeoutMs);
    if (!res.ok) throw new OpFailed(res.error);
    return receivedResult(op, res.value) as OpResult<K>;
  }

  /** As `call`, with the core's own error (InputError, ContextBudgetExceeded, …) thrown for a failure. */
  async run<K extends OpName>(op: K, args: OpArgs<K>, timeoutMs = RUN_TIMEOUT_MS): Promise<OpResult<K>> {
    try {
      return await this.call(op, args, timeoutMs);
    } catch (e) {
      throw e instanceof OpFailed ? revive(e.error) : e;
    }
  }

  private post(request: Omit<OpRequest, 'id'>, timeoutMs: number): Promise<OpResponse> {
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
      const settle = <T>(f: (v: T) => void) => (v: T) => {
        clearTimeout(timer);
        f(v);
      };
      this.waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
      worker.postMessage({ ...request, id });
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.on('message', (res: OpResponse) => {
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
