/** Worker side: a snapshot from the inputs the host sent (no `vscode`; runs in the worker threads). */
import type { Assembly } from '../../core/chain/assemble';
import { orderBlocks, wrap } from '../../core/chain/render';
import { ContextEngine } from '../../core/engine';
import { writeRecord } from '../../core/report/record';
import { diskReader, overlayReader } from '../../core/sources/reader';
import type { Snapshot } from '../../core/sources/snapshot';
import { counterFor, encodingForModel, type Tokenizer } from '../../core/tokens';
import { diskHost } from '../../host/disk';
import { CHAT_SESSION_SOURCE } from '../chat/history';
import type { CountWith } from './ops-protocol';
import { viewOf, type AssembleRequest, type BlockView, type ChatPatch, type SnapshotView, type WorkerSnapshot } from './protocol';

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

/** The panel's assembly (and the chat's /preview, with a patch): the same stored summaries the CLI uses. */
export function assembleRequest(req: Omit<AssembleRequest, 'id'>, onSnapshot: (s: Snapshot) => void) {
  const snapshot = load(req.snapshot, req.patch);
  onSnapshot(snapshot);
  const assembly = engineFor(req.snapshot.root).assemble(snapshot, { ...req.options, sessionFile: req.snapshot.sessionFile, summaries: req.patch ? false : undefined });
  if (req.recordDir) writeRecord(req.recordDir, { request: assembly.serialized, manifest: assembly.manifest, trace: assembly.trace });
  return resultOf(assembly, snapshot);
}
