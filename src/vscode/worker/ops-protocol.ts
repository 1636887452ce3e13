import type { CaseOptions, CaseResult } from '../../core/compare/check-run';
import type { CheckCase } from '../../core/compare/checks-file';
import type { CompactionPreview } from '../../core/session/compaction';
import type { CompareResult } from '../../core/compare/run';
import type { AssembleRequest, BlockView, FitResult, ChatPatch, CompareArgs, SerializedError, SnapshotView, WorkerSnapshot } from './protocol';
import type { Assembly } from '../../core/chain/assemble';
import type { Pin } from '../../core/sources/snapshot';
import type { PinTrial } from '../../view-model/pin-outcome';

/** The tokenizer the host asks the worker to count with: the configured model and encoding. */
export interface CountWith {
  model: string;
  encoding?: string;
}

/**
 * Everything the extension host asks the assemble worker to run, by name: the host imports these types only, so
 * the chain, the tokenizer and their rank tables stay in the worker's bundle.
 */
export interface Ops {
  assemble: { args: Omit<AssembleRequest, 'id'>; result: { assembly: Assembly; snapshot: SnapshotView; view: BlockView; fit?: FitResult } };
  /** The window that sends the evidence an assembly dropped, asked for by the panel's banner (load.ts findWindow). */
  findWindow: { args: { root: string; ticket: number }; result: { window?: number; superseded?: boolean } };
  /** The panel's request with one more pin, assembled for real: what the pin-size question says (pin-trial.ts). */
  pinTrial: { args: Pick<AssembleRequest, 'snapshot' | 'options'> & { pin: Pin }; result: PinTrial };
  /** assemble_context: the rendered context under `maxInput`, or the refusal's figures. */
  renderContext: {
    args: { snapshot: WorkerSnapshot; patch: ChatPatch; maxInput: number } & CountWith;
    result: { text: string } | { refused: { sources: string[]; mandatoryTokens: number; maxInput: number } };
  };
  readDocument: { args: { snapshot: WorkerSnapshot; input: Record<string, unknown>; maxTokens: number } & CountWith; result: { text: string; found: boolean } };
  searchWorkspace: { args: { snapshot: WorkerSnapshot; query: string; glob?: string }; result: { text: string } };
  inspectOffloaded: { args: { snapshot: WorkerSnapshot; path: string; op: string; pattern?: string; lines?: number; context?: number } & CountWith; result: { text: string } };
  count: { args: { text: string } & CountWith; result: number };
  /** read_document's announcement: the workspace path it would read (undefined: outside) and its size in bytes. */
  workspaceFile: { args: { root: string; path: string }; result: { rel?: string; size?: number; refused?: string } };
  /** /compact: how the chat's older turns would fold. */
  compactPreview: { args: { snapshot: WorkerSnapshot; patch: ChatPatch } & CountWith; result: CompactionPreview | undefined };
  /** Compare Policies without sending (the send worker compares when the variants are sent). */
  compare: { args: CompareArgs & { provider?: undefined }; result: CompareResult };
  /** One case of .context/checks.yaml, assembled without sending. */
  /** The workspace's folders: the engines of folders not among them are let go; the roots let go and kept come back. */
  keepFolders: { args: { roots: string[] }; result: { evicted: string[]; kept: string[] } };
  runCase: { args: { case: CheckCase; options: Omit<CaseOptions, 'provider' | 'clock' | 'signal' | 'summaries'> }; result: CaseResult & { passed: boolean } };
}

export type OpName = keyof Ops;
export type OpArgs<K extends OpName> = Ops[K]['args'];
export type OpResult<K extends OpName> = Ops[K]['result'];

export interface OpRequest<K extends OpName = OpName> {
  id: number;
  op: K;
  args: OpArgs<K>;
}

export type OpResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };
