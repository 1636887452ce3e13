/** Worker side: a snapshot from the inputs the host sent (no `vscode`; runs in the worker threads). */
import type { Assembly } from '../../core/chain/assemble';
import { windowToFit } from '../../core/chain/fit-window';
import { droppedEvidence } from '../../view-model/dropped';
import { orderBlocks, wrap } from '../../core/chain/render';
import { ContextEngine, type AssembleRequest as EngineAssembleRequest } from '../../core/engine';
import { writeRecord } from '../../core/report/record';
import { diskReader, overlayReader } from '../../core/sources/reader';
import type { Snapshot } from '../../core/sources/snapshot';
import { counterFor, encodingForModel, type Tokenizer } from '../../core/tokens';
import { diskHost } from '../../host/disk';
import { CHAT_SESSION_SOURCE } from '../chat/history';
import type { CountWith } from './ops-protocol';
import { viewOf, type AssembleRequest, type BlockView, type ChatPatch, type FitResult, type SnapshotView, type WorkerSnapshot } from './protocol';

/**
 * Load the snapshot, reading unsaved buffers before the disk. With a chat patch, the prompt is the task as literal
 * text (a prompt, from a person or a model, cannot make the chain read a file) and the chat's history is the session.
 */
export function load(input: WorkerSnapshot, patch?: ChatPatch): Snapshot {
  const { buffers, root, ...options } = input;
  const reader = buffers?.length ? overlayReader(diskReader(root), buffers) : undefined;
  const loaded = engineFor(root).load({ ...options, reader, ...(patch ? { task: patch.task, sessionFile: undefined } : {}) });
  if (!patch) return loaded;
  const literal = loaded.task.source === 'task' ? loaded.task : { text: patch.task, source: 'task', files: [] };
  return { ...loaded, task: literal, session: patch.session, sessionSource: patch.session.length ? CHAT_SESSION_SOURCE : undefined };
}

export function tokenizerOf(w: CountWith): Tokenizer {
  return counterFor(encodingForModel(w.model, w.encoding).encoding);
}

/** Each block's wrapped text and the request order, so the host shows blocks without the chain. */
export function blockView(assembly: Pick<Assembly, 'blocks'>): BlockView {
  const wrapped: Record<string, string> = {};
  for (const b of assembly.blocks) wrapped[b.id] = wrap(b);
  return { wrapped, order: orderBlocks(assembly.blocks).map((b) => b.id) };
}

export function resultOf(assembly: Assembly, snapshot: Snapshot): { assembly: Assembly; snapshot: SnapshotView; view: BlockView } {
  return { assembly, snapshot: viewOf(snapshot), view: blockView(assembly) };
}

/**
 * One engine per workspace folder, kept while the worker lives: its full-text index re-indexes only the files that
 * changed between runs. A multi-root workspace sends each folder's root; each gets its own engine.
 */
const engines = new Map<string, ContextEngine>();
export function engineFor(root: string): ContextEngine {
  let engine = engines.get(root);
  if (!engine) engines.set(root, (engine = new ContextEngine(diskHost, root)));
  return engine;
}

/**
 * Lets go of the engines (and their indexes) of folders no longer in the workspace: `roots` are the workspace's
 * folders now. Returns the roots let go, in the order their engines were made.
 */
export function keepEngines(roots: readonly string[]): string[] {
  const gone = [...engines.keys()].filter((r) => !roots.includes(r));
  for (const r of gone) engines.delete(r);
  return gone;
}

/** The roots that have an engine, in the order they were made. */
export function engineRoots(): string[] {
  return [...engines.keys()];
}

/** The panel's assembly (and the chat's /preview, with a patch): the same stored summaries the CLI uses. */
export function assembleRequest(req: Omit<AssembleRequest, 'id'>, onSnapshot: (s: Snapshot) => void) {
  const snapshot = load(req.snapshot, req.patch);
  onSnapshot(snapshot);
  const engine = engineFor(req.snapshot.root);
  const options: EngineAssembleRequest = { ...req.options, sessionFile: req.snapshot.sessionFile, summaries: req.patch ? false : undefined };
  const assembly = engine.assemble(snapshot, options);
  if (req.recordDir) writeRecord(req.recordDir, { request: assembly.serialized, manifest: assembly.manifest, trace: assembly.trace });
  return { ...resultOf(assembly, snapshot), fit: fitOf(engine, assembly, snapshot, options) };
}

/** Time the window search may take after an assembly that dropped evidence (the panel waits for it). */
const FIT_BUDGET_MS = 3000;

/**
 * The key evidence the budget dropped, and the window that would send it all, found by assembling the same inputs
 * at larger windows (core/chain/fit-window.ts); undefined when nothing was dropped.
 */
function fitOf(engine: ContextEngine, assembly: Assembly, snapshot: Snapshot, options: EngineAssembleRequest): FitResult | undefined {
  const dropped = droppedEvidence(assembly.manifest);
  if (!dropped.length) return undefined;
  const started = Date.now();
  const sources = dropped.map((d) => d.source);
  const window = windowToFit({
    policy: snapshot.policy,
    sources,
    needed: dropped.reduce((n, d) => n + (d.tokens ?? 0), 0),
    assembleAt: (w) => engine.assemble({ ...snapshot, policy: { ...snapshot.policy, envelope: { ...snapshot.policy.envelope, window: w } } }, { ...options, previousPrefixHash: undefined }),
    stop: () => Date.now() - started > FIT_BUDGET_MS,
  });
  return { sources, ...(window !== undefined ? { window } : {}) };
}
