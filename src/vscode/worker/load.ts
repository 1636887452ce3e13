/** Worker side: a snapshot from the inputs the host sent (no `vscode`; runs in the worker threads). */
import { createHash } from 'node:crypto';
import type { Assembly } from '../../core/chain/assemble';
import { windowToFitAsync } from '../../core/chain/fit-window';
import { droppedEvidence } from '../../view-model/dropped';
import { orderBlocks, wrap } from '../../core/chain/render';
import { ContextEngine, type AssembleRequest as EngineAssembleRequest } from '../../core/engine';
import { writeRecord } from '../../core/report/record';
import { diskReader, overlayReader } from '../../core/sources/reader';
import type { Snapshot } from '../../core/sources/snapshot';
import { counterFor, encodingForModel, type Tokenizer } from '../../core/tokens';
import { diskHost } from '../../host/disk';
import { openIndex, saveIndex, type IndexStore } from '../../core/relevance/persist';
import type { RelevanceIndex } from '../../core/relevance/index';
import { workspaceIndexStore } from '../../cli/index-store';
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
  if (!engine) {
    // The folder's index starts from the one the CLI keeps (src/cli/index-store.ts, the user's cache folder): the
    // editor and `ctxctl preview` share it. Every entry is checked against the text read before it is trusted (its
    // digest), so a buffer's unsaved text is indexed anew, never taken for the file's.
    const store = workspaceIndexStore(root);
    const opened = openIndex(store);
    if (opened.warning) indexNotes.push(`${root}: ${opened.warning}`);
    keptIndexes.set(root, { index: opened.index, store });
    engines.set(root, (engine = new ContextEngine(diskHost, { root, relevance: opened.index })));
  }
  return engine;
}

/** Each engine's index and where it is kept between sessions. */
const keptIndexes = new Map<string, { index: RelevanceIndex; store: IndexStore }>();
/** The index the folder's engine ranks with (undefined: no engine for it yet). */
export function keptIndexOf(root: string): RelevanceIndex | undefined {
  return keptIndexes.get(root)?.index;
}

/** What became of the kept indexes (unreadable, not saved), for the worker's log. */
const indexNotes: string[] = [];

/**
 * Save the indexes that changed since they were opened or last saved (saveIndex writes only those). Returns and
 * clears the notes of this and earlier openings: an unusable kept index (rebuilt) or a cache folder that cannot be
 * written (the next session rebuilds). The worker calls it once it is idle after an operation.
 */
export function saveKeptIndexes(): string[] {
  for (const [root, kept] of keptIndexes) {
    const note = saveIndex(kept.index, kept.store);
    if (note) indexNotes.push(`${root}: ${note}`);
  }
  return indexNotes.splice(0);
}

/**
 * Lets go of the engines (and their indexes) of folders no longer in the workspace: `roots` are the workspace's
 * folders now. Returns the roots let go, in the order their engines were made.
 */
export function keepEngines(roots: readonly string[]): string[] {
  const gone = [...engines.keys()].filter((r) => !roots.includes(r));
  for (const r of gone) {
    const kept = keptIndexes.get(r);
    if (kept) saveIndex(kept.index, kept.store);
    keptIndexes.delete(r);
    engines.delete(r);
  }
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

/** Time the window search may take, once the panel asks for it (the banner is shown). */
const FIT_BUDGET_MS = 3000;

/** What the window search of an assembly that dropped evidence needs: kept for the folder's last assembly only. */
interface FitInputs {
  ticket: number;
  key: string;
  sources: string[];
  needed: number;
  assembleAt: (window: number) => Assembly;
  policy: Snapshot['policy'];
}
const fitInputs = new Map<string, FitInputs>();
/** Windows found, by a digest of the inputs they were found for (the request, the dropped figures, the envelope): the last few. */
const fitFound = new Map<string, number | undefined>();
const FIT_FOUND_KEPT = 8;
/** Tickets name an assembly across worker restarts (a fresh worker starts at another number). */
let tickets = Math.floor(Math.random() * 1e9);

/**
 * The key evidence the budget dropped (undefined when nothing was). No assembly is run here: the window that sends
 * it all is found when the panel shows the banner and asks (findWindow, with the ticket), or given at once when the
 * same inputs were searched before. A newer assembly of the folder supersedes the ticket.
 */
function fitOf(engine: ContextEngine, assembly: Assembly, snapshot: Snapshot, options: EngineAssembleRequest): FitResult | undefined {
  const root = snapshot.root;
  const dropped = droppedEvidence(assembly.manifest);
  if (!dropped.length) {
    fitInputs.delete(root);
    return undefined;
  }
  const sources = dropped.map((d) => d.source);
  const needed = dropped.reduce((n, d) => n + (d.tokens ?? 0), 0);
  // A digest, not the inputs themselves: the request is megabytes at a large window, and the last few keys are kept.
  const key = createHash('sha256').update(assembly.serialized).update('\0').update(JSON.stringify([dropped, snapshot.policy.envelope])).digest('hex');
  if (fitFound.has(key)) {
    fitInputs.delete(root);
    const window = fitFound.get(key);
    return { sources, ...(window !== undefined ? { window } : {}) };
  }
  const ticket = ++tickets;
  fitInputs.set(root, {
    ticket,
    key,
    sources,
    needed,
    policy: snapshot.policy,
    assembleAt: (w) => engine.assemble({ ...snapshot, policy: { ...snapshot.policy, envelope: { ...snapshot.policy.envelope, window: w } } }, { ...options, previousPrefixHash: undefined }),
  });
  return { sources, ticket };
}

/**
 * The window at which the chain sends all the evidence an assembly dropped, found by assembling the same inputs at
 * larger windows (core/chain/fit-window.ts), within FIT_BUDGET_MS; `superseded` when a newer assembly of the folder
 * came first (then its own ticket is the one to ask with), also during the search.
 */
export async function findWindow(root: string, ticket: number): Promise<{ window?: number; superseded?: boolean }> {
  const inputs = fitInputs.get(root);
  if (!inputs || inputs.ticket !== ticket) return { superseded: true };
  const started = Date.now();
  const window = await windowToFitAsync({
    policy: inputs.policy,
    sources: inputs.sources,
    needed: inputs.needed,
    assembleAt: inputs.assembleAt,
    stop: () => Date.now() - started > FIT_BUDGET_MS,
    cancelled: () => fitInputs.get(root)?.ticket !== ticket,
  });
  if (fitInputs.get(root)?.ticket !== ticket) return { superseded: true };
  fitInputs.delete(root);
  fitFound.set(inputs.key, window);
  if (fitFound.size > FIT_FOUND_KEPT) fitFound.delete(fitFound.keys().next().value as string);
  return window !== undefined ? { window } : {};
}
