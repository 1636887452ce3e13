import * as path from 'node:path';
import { assembleContext, inspectTool, readDocumentTool, searchWorkspaceTool, type AssembleArgs, type InspectArgs, type ToolAnswer } from './agents/workspace-tools';
import { assemble, type Assembly } from './chain/assemble';
import { runCase, type CaseOptions, type CaseResult } from './compare/check-run';
import type { CheckCase } from './compare/checks-file';
import { compare, type CompareInput, type CompareResult } from './compare/run';
import { readDocument, type ReadDocumentArgs, type ReadDocumentOptions, type ReadDocumentResult } from './disclose';
import type { ChainEngine } from './engine-port';
import type { AssembleRequest, LoadRequest } from './engine-requests';
import { FolderEngine, type FolderRef } from './folder-engine';
import type { Host } from './host';
import { offloadLocation } from './offload/location';
import { openOffloadStore, type OffloadStore } from './offload/store';
import type { Policy } from './policy';
import { RelevanceIndex } from './relevance/index';
import { sendLoop, type SendLoopOptions, type SendOutcome } from './send/loop';
import { inspectOffloaded, searchWorkspace, type ToolOutcome } from './send/tools';
import { previewCompaction, type CompactionInput, type CompactionPreview } from './session/compaction';
import { workspaceSummaries } from './session/summary-store';
import { loadSnapshot, type Snapshot } from './sources/snapshot';
import { counterFor, encodingForModel, type Tokenizer } from './tokens';

/** A workspace folder, with a relevance index to start from (the CLI's kept one, core/relevance/persist.ts); default: an empty one. */
export interface EngineFolder extends FolderRef {
  relevance?: RelevanceIndex;
  /**
   * A scheduler for the offload stores' record writes (store.ts `later`): the gateway's, which runs a job when no
   * call is in flight. Without it, each put writes the record at once.
   */
  recordLater?: (job: () => void) => void;
}

export type { AssembleRequest, LoadRequest } from './engine-requests';

/**
 * One workspace folder's engine: the only way the surfaces (the CLI's commands, the MCP server, the hook, the editor's
 * worker, chat and the LM tools through it) reach the chain. It owns what lives longer than one call: the last
 * snapshot, the full-text relevance index (updated file by file between calls), the token counters and their count
 * caches, the stored summaries' reading, and the offload stores. Every operation wraps the core's own function; the
 * engine decides nothing of its own, so a surface gets the same request as any other for the same inputs.
 */
export class ContextEngine extends FolderEngine implements ChainEngine {
  private readonly relevance: RelevanceIndex;
  private readonly stores = new Map<string, OffloadStore>();
  private lastSnapshot: Snapshot | undefined;

  private readonly recordLater?: (job: () => void) => void;

  constructor(host: Host, folder: string | EngineFolder) {
    super(host, folder);
    this.relevance = (typeof folder === 'string' ? undefined : folder.relevance) ?? new RelevanceIndex();
    this.recordLater = typeof folder === 'string' ? undefined : folder.recordLater;
  }

  /** The snapshot of the last load, if any. */
  get snapshot(): Snapshot | undefined {
    return this.lastSnapshot;
  }

  /** The workspace read afresh (policy, pins, files, task, session, changes). */
  load(request: LoadRequest): Snapshot {
    this.lastSnapshot = this.run(() => loadSnapshot({ ...request, root: this.root }));
    return this.lastSnapshot;
  }

  /** The summary store beside the session file (default: the workspace's session). */
  summaries(sessionFile?: string): ReturnType<typeof workspaceSummaries> {
    return this.run(() => workspaceSummaries(this.root, sessionFile));
  }

  /** The exact counter of a model (or an encoding): one per encoding for the process, with its count cache. */
  tokenizer(model?: string, encoding?: string): Tokenizer {
    return this.run(() => counterFor(encodingForModel(model, encoding).encoding));
  }

  /** The chain over a snapshot, with the stored summaries and the engine's relevance index. */
  assemble(snapshot: Snapshot, options: AssembleRequest = {}): Assembly {
    const { sessionFile, summaries, ...rest } = options;
    return this.run(() => assemble(snapshot, { ...rest, summaries: summaries === false ? undefined : (summaries ?? this.summaries(sessionFile)), relevanceIndex: this.relevance }));
  }

  /** Load, then assemble: what `ctxctl preview`, the panel and `assemble_context` show. */
  preview(request: LoadRequest, options: Omit<AssembleRequest, 'sessionFile'> = {}): { snapshot: Snapshot; assembly: Assembly } {
    const snapshot = this.load(request);
    return { snapshot, assembly: this.assemble(snapshot, { ...options, sessionFile: request.sessionFile }) };
  }

  /** read_document over a snapshot: one document or section, through the same checks as the context. */
  readDocument(snapshot: Snapshot, input: ReadDocumentArgs | Record<string, unknown>, options: ReadDocumentOptions): ReadDocumentResult {
    return this.run(() => readDocument(snapshot, input, options));
  }

  /** search_workspace over a snapshot's files. */
  search(snapshot: Snapshot, query: string, glob?: string): ToolOutcome {
    return this.run(() => searchWorkspace(snapshot, query, glob));
  }

  /** inspect_offloaded: an offloaded result of the snapshot's policy's store, or a workspace file, never read whole. */
  inspect(snapshot: Snapshot, tokenizer: Tokenizer, requested: string, op: string, pattern?: string, lines?: number, context?: number): ToolOutcome {
    return this.run(() => inspectOffloaded({ snapshot, tokenizer, offloadDir: path.resolve(snapshot.root, snapshot.policy.offload.dir) }, requested, op, pattern, lines, context));
  }

  /** The send loop over a snapshot: each step's request rebuilt by this engine (its index, its host). */
  send(snapshot: Snapshot, options: SendLoopOptions): Promise<SendOutcome> {
    return this.run(() => sendLoop(this, snapshot, options));
  }

  /** What compacting a session would fold and keep, without writing anything. */
  compact(input: CompactionInput): CompactionPreview | undefined {
    return this.run(() => previewCompaction(input));
  }

  /** One case of a checks file, with the workspace's stored summaries. */
  check(c: CheckCase, options: Omit<CaseOptions, 'root' | 'summaries'>): Promise<CaseResult> {
    return this.run(() => runCase(this, c, { ...options, root: this.root, summaries: this.summaries(options.sessionFile) }));
  }

  /** Policy variants side by side over the same workspace and task. */
  compare(input: Omit<CompareInput, 'root' | 'summaries'>): Promise<CompareResult> {
    return this.run(() => compare(this, { ...input, root: this.root, summaries: this.summaries(input.sessionFile) }));
  }

  /** The offload store a policy names (checked: inside the workspace, a folder), opened once per folder. */
  offloadStore(policy: Policy): OffloadStore {
    const dir = this.run(() => offloadLocation(this.root, policy));
    let store = this.stores.get(dir);
    if (!store) {
      const later = this.recordLater;
      const opened = openOffloadStore(dir, { maxAgeDays: policy.offload.retention_days, maxMegabytes: policy.offload.retention_mb }, () => this.host.now(), later && ((job) => later(() => this.run(job))));
      // The store writes later, when a surface puts a result: each write runs with this engine's host.
      this.stores.set(dir, (store = { dir: opened.dir, put: (...args) => this.run(() => opened.put(...args)), flush: () => this.run(() => opened.flush()) }));
    }
    return store;
  }

  /** Writes what the offload stores hold back for their records (EngineFolder `recordLater`). */
  flushOffloadRecords(): void {
    for (const store of this.stores.values()) store.flush();
  }

  /** The agent's tools (MCP): assemble_context, read_document, search_workspace, inspect_offloaded over this folder. */
  readonly tools = {
    assembleContext: (args: AssembleArgs): ToolAnswer => this.run(() => assembleContext(this, args)),
    readDocument: (args: { path: string; heading?: string }): ToolAnswer => this.run(() => readDocumentTool(this, args)),
    searchWorkspace: (args: { pattern: string; glob?: string }): ToolAnswer => this.run(() => searchWorkspaceTool(this, args)),
    inspect: (args: InspectArgs): ToolAnswer => this.run(() => inspectTool(this, args)),
  };
}
