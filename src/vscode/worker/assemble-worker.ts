/**
 * The chain runs here, off the extension host's thread, so tokenizing never freezes the editor. Loads the
 * snapshot and assembles; the tokenizer's count cache lives as long as the worker. No `vscode` import.
 */
import { parentPort } from 'node:worker_threads';
import { assemble } from '../../core/chain/assemble';
import { ContextBudgetExceeded, InputError } from '../../core/errors';
import { workspaceSummaries } from '../../core/session/summary-store';
import { RelevanceIndex } from '../../core/relevance/index';
import { loadSnapshot, type Snapshot } from '../../core/sources/snapshot';
import { viewOf, type AssembleRequest, type AssembleResponse, type SerializedError } from './protocol';

function serialize(e: unknown, snapshot: Snapshot | undefined): SerializedError {
  const base = { name: (e as Error)?.name ?? 'Error', message: (e as Error)?.message ?? String(e), snapshot: snapshot && viewOf(snapshot) };
  if (e instanceof ContextBudgetExceeded) return { ...base, maxInput: e.maxInput, mandatoryTokens: e.mandatoryTokens, blocks: e.blocks };
  if (e instanceof InputError) return { ...base, message: e.message, file: e.file, line: e.line, column: e.column };
  return base;
}

/** One full-text index per workspace, kept while the worker lives: each run re-indexes only the files that changed. */
const indexes = new Map<string, RelevanceIndex>();
function indexFor(root: string): RelevanceIndex {
  let index = indexes.get(root);
  if (!index) indexes.set(root, (index = new RelevanceIndex()));
  return index;
}

parentPort?.on('message', (req: AssembleRequest) => {
  let snapshot: Snapshot | undefined;
  let res: AssembleResponse;
  try {
    snapshot = loadSnapshot(req.snapshot);
    // The same stored summaries the CLI uses, so the editor and ctxctl build the same request.
    const assembly = assemble(snapshot, { ...req.options, summaries: workspaceSummaries(snapshot.root, req.snapshot.sessionFile), relevanceIndex: indexFor(snapshot.root) });
    res = { id: req.id, ok: true, assembly, snapshot: viewOf(snapshot) };
  } catch (e) {
    res = { id: req.id, ok: false, error: serialize(e, snapshot) };
  }
  parentPort?.postMessage(res);
});
