import * as path from 'node:path';
import { collect } from '../chain/collect';
import type { Policy } from '../policy';
import type { ChainEngine } from '../engine-port';
import { displayPath, SESSION_FILE, type Pin } from '../sources/snapshot';
import { counterFor } from '../tokens';
import type { Warning } from '../types';
import type { CompactionInput } from './compaction';
import { constraintsFrom } from './constraints';
import type { SessionStore } from './store';
import { readSummaryStore, summaryStorePath } from './summary-store';

export interface SessionWorkspace {
  input: CompactionInput;
  /** Where compact, edit and undo records go (store.appendSummary) and are read back from (store.summariesFile). */
  store: SessionStore;
  storeLabel: string;
  warnings: Warning[];
}

/**
 * What preview, compact, edit and undo of the session summary need, read from a workspace's session store: the
 * events, the summary records beside them, the constraints of the pinned and mandatory blocks, and the paths that
 * exist. Shared by `ctxctl session` and the editor's commands, so both act on the same store; read through the
 * folder's engine.
 */
export function sessionWorkspace(engine: Pick<ChainEngine, 'root' | 'load'>, policy: Policy, store: SessionStore, pins: Pin[] = []): SessionWorkspace {
  const root = engine.root;
  const sessionFile = store.snapshotFile();
  const file = sessionFile ? path.resolve(sessionFile) : path.join(root, SESSION_FILE);
  const snapshot = engine.load({ task: 'session maintenance', policy, sessionFile, pins, changes: false });
  const replayed = summaryStorePath(file);
  const records = readSummaryStore(replayed, displayPath(root, replayed));
  const input: CompactionInput = {
    events: snapshot.session,
    source: displayPath(root, file),
    policy,
    records: records.records,
    constraints: constraintsFrom(collect(snapshot).value.blocks),
    knownSources: snapshot.files.map((f) => f.path),
    tokenizer: counterFor('o200k_base'),
  };
  const storeLabel = displayPath(root, store.summariesFile);
  return { input, store, storeLabel, warnings: [...snapshot.warnings.filter((w) => w.source === input.source), ...records.warnings] };
}
