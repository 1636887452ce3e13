import type { AssembleOptions, Assembly } from '../../core/chain/assemble';
import type { OversizedBlock } from '../../core/errors';
import type { Snapshot, SnapshotOptions } from '../../core/sources/snapshot';
import type { SessionStoreRef } from '../../core/session/report';
import type { SessionEvent } from '../../core/types';

/** The snapshot as the views need it: plain data that crosses a thread (no line readers). */
export type SnapshotView = Omit<Snapshot, 'toolOutputs'> & { toolOutputs: { path: string; size: number; format?: string }[] };

export interface AssembleRequest {
  id: number;
  snapshot: Omit<SnapshotOptions, 'policy'> & { policy: NonNullable<SnapshotOptions['policy']> };
  options: Omit<AssembleOptions, 'tokenizer' | 'now'>;
}

export interface SerializedError {
  name: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  maxInput?: number;
  mandatoryTokens?: number;
  blocks?: OversizedBlock[];
  /** The snapshot, when the error came after it was read (a refusal still has an index to show). */
  snapshot?: SnapshotView;
}

export type AssembleResponse =
  | { id: number; ok: true; assembly: Assembly; snapshot: SnapshotView }
  | { id: number; ok: false; error: SerializedError };

export function viewOf(snapshot: Snapshot): SnapshotView {
  return { ...snapshot, toolOutputs: snapshot.toolOutputs.map((o) => ({ path: o.path, size: o.size, format: o.format })) };
}

/** Host → send worker. The API key travels in memory only; it is never written or logged. */
export type SendWorkerIn =
  | {
      type: 'send';
      id: number;
      snapshot: AssembleRequest['snapshot'];
      provider: { id: 'openai' | 'anthropic'; apiKey?: string; baseUrl?: string };
      model: string;
      encoding?: string;
      sessionStore?: SessionStoreRef;
    }
  | { type: 'cancel'; id: number };

export interface SendWorkerResult {
  steps: number;
  stopped: string;
  /** The exact bytes of the last request that went on the wire. */
  sent?: string;
  manifest?: unknown;
  trace: string;
  error?: { name: string; message: string };
  answer: string;
  /** The loop's tool calls and results, as session events. */
  events: SessionEvent[];
}

/** Send worker → host. */
export type SendWorkerOut =
  | { type: 'text'; id: number; text: string }
  | { type: 'notice'; id: number; message: string }
  | { type: 'done'; id: number; result: SendWorkerResult };
