import type { AssembleOptions, Assembly } from '../../core/chain/assemble';
import type { CompareInput, CompareResult } from '../../core/compare/run';
import type { OversizedBlock, QuickFix } from '../../core/errors';
import type { Policy } from '../../core/policy';
import type { ProviderErrorDetails, ProviderErrorKind } from '../../core/providers/errors';
import type { PreparedRequest, ProviderResult } from '../../core/providers/provider';
import type { BufferText } from '../../core/sources/reader';
import type { Snapshot, SnapshotOptions } from '../../core/sources/snapshot';
import type { SessionStoreRef } from '../../core/session/report';
import type { SessionEvent } from '../../core/types';

/** The snapshot as the views need it: plain data that crosses a thread (no line readers). */
export type SnapshotView = Omit<Snapshot, 'toolOutputs'> & { toolOutputs: { path: string; size: number; format?: string }[] };

/** The inputs of one snapshot as they cross a thread: plain data, with the editor's unsaved buffers. */
export type WorkerSnapshot = Omit<SnapshotOptions, 'policy' | 'reader' | 'changes'> & {
  policy: NonNullable<SnapshotOptions['policy']>;
  changes?: false;
  /** Unsaved editor buffers; the worker reads them before the disk (core/sources/reader.ts). */
  buffers?: BufferText[];
};

/** The chat's own inputs over the panel's: its prompt as literal task text, its history as the session. */
export interface ChatPatch {
  task: string;
  session: SessionEvent[];
}

export interface AssembleRequest {
  id: number;
  snapshot: WorkerSnapshot;
  options: Omit<AssembleOptions, 'tokenizer' | 'now'>;
  patch?: ChatPatch;
  /** Where the worker writes request.json, manifest.json and trace.txt (redacted) after a successful assembly. */
  recordDir?: string;
}

/** What the views need of the blocks without the chain: each block's wrapped text, and the ids in request order. */
export interface BlockView {
  wrapped: Record<string, string>;
  order: string[];
}

export interface SerializedError {
  name: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** InputError: the quick fix an editor can offer. */
  fix?: QuickFix;
  maxInput?: number;
  mandatoryTokens?: number;
  blocks?: OversizedBlock[];
  /** ProviderError: which provider failed, the kind the loop and the retries act on, and its figures. */
  provider?: string;
  kind?: ProviderErrorKind;
  details?: ProviderErrorDetails;
  /** The snapshot, when the error came after it was read (a refusal still has an index to show). */
  snapshot?: SnapshotView;
}

export type AssembleResponse =
  | { id: number; ok: true; assembly: Assembly; snapshot: SnapshotView; view: BlockView }
  | { id: number; ok: false; error: SerializedError };

export function viewOf(snapshot: Snapshot): SnapshotView {
  return { ...snapshot, toolOutputs: snapshot.toolOutputs.map((o) => ({ path: o.path, size: o.size, format: o.format })) };
}

/** An HTTP provider as it crosses to the worker. The API key travels in memory only; it is never written or logged. */
export interface HttpProviderSpec {
  id: 'openai' | 'anthropic';
  apiKey?: string;
  baseUrl?: string;
}

/** Compare Policies: the variants are assembled (and sent once each, with a provider) in a send worker. */
export type CompareArgs = Omit<CompareInput, 'provider' | 'offloadDir' | 'clock' | 'signal' | 'onNotice' | 'summaries' | 'variants'> & {
  /** The policy files, absolute; the current one first (the baseline). */
  policies: string[];
  provider?: HttpProviderSpec;
  /** A scratch folder: each variant and run gets its own empty offload store under it. */
  scratch: string;
  /**
   * The panel's own inputs (pins, unsaved buffers, editor signals) and each policy as the panel composes it (the
   * settings' envelope, the model's window): the variant of the current policy is then the panel's request, figure
   * for figure. Without them each variant is read from disk, as `ctxctl compare` reads it.
   */
  inputs?: Omit<WorkerSnapshot, 'policy'>;
  variantPolicies?: Policy[];
};

/** Host → send worker. */
export type SendWorkerIn =
  | {
      type: 'send';
      id: number;
      snapshot: WorkerSnapshot;
      patch?: ChatPatch;
      /** vscode-lm: the worker's provider asks the host for each count and send (RemoteProvider). */
      provider: HttpProviderSpec | { id: 'vscode-lm'; endpoint: string; maxInputTokens: number };
      model: string;
      encoding?: string;
      sessionStore?: SessionStoreRef;
      /** Where the worker writes the last step's request.json, manifest.json and trace.txt (redacted). */
      recordDir?: string;
      /** Record the exchange in the editor's session store (created from `seed` on first use). */
      record?: { store: string; seed: string };
    }
  | { type: 'compare'; id: number; input: CompareArgs }
  | { type: 'cancel'; id: number }
  | { type: 'lm-text'; id: number; call: number; text: string }
  | { type: 'lm-done'; id: number; call: number; result?: ProviderResult | number; error?: SerializedError };

export interface SendWorkerResult {
  steps: number;
  stopped: string;
  /** The exact bytes of the last request that went on the wire. */
  sent?: string;
  manifest?: unknown;
  trace: string;
  error?: SerializedError;
  answer: string;
  /** As the provider reported it for the last step (cachedTokens: input served from its prompt cache). */
  usage?: { inputTokens?: number; outputTokens?: number; cachedTokens?: number };
  /** The last step's assembly (manifest and trace of the send) and its views, for the panel and the chat. */
  last?: { assembly: Assembly; snapshot: SnapshotView; view: BlockView };
  /** Workspace sources whose text was sent in any step (selected or trimmed), once each, in manifest order. */
  references?: string[];
  /** The provider's own count of the last request, when it gave one. */
  providerCount?: number;
  /** The loop's tool calls and results, as session events. */
  events: SessionEvent[];
}

/** Send worker → host. */
export type SendWorkerOut =
  | { type: 'text'; id: number; text: string }
  | { type: 'notice'; id: number; message: string }
  | { type: 'progress'; id: number; message: string }
  | { type: 'lm'; id: number; call: number; op: 'send' | 'count'; request: PreparedRequest }
  | { type: 'done'; id: number; result: SendWorkerResult }
  | { type: 'compared'; id: number; result?: CompareResult; error?: SerializedError };

/**
 * The key evidence an assembly dropped to fit, and the window at which the chain sends it all (when one was
 * verified). With a ticket the search is still to be asked for (the worker's findWindow op): the panel asks when it
 * shows the banner.
 */
export interface FitResult {
  sources: string[];
  window?: number;
  ticket?: number;
}
