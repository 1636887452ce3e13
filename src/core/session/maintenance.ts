import * as path from 'node:path';
import { collect } from '../chain/collect';
import type { Policy } from '../policy';
import { displayPath, loadSnapshot, SESSION_FILE, type Pin } from '../sources/snapshot';
import { counterFor } from '../tokens';
import type { Warning } from '../types';
import type { CompactionInput } from './compaction';
import { constraintsFrom } from './constraints';
import { readSummaryStore, summaryStorePath } from './summary-store';

export interface SessionWorkspace {
  input: CompactionInput;
  storeFile: string;
  storeLabel: string;
  warnings: Warning[];
}

/**
 * What preview, compact, edit and undo of the session summary need, read from a workspace: the events, the
 * summary store beside them, the constraints of the pinned and mandatory blocks, and the paths that exist.
 * Shared by `ctxctl session` and the editor's commands.
 */
export function sessionWorkspace(root: string, policy: Policy, sessionFile?: string, pins: Pin[] = []): SessionWorkspace {
  const file = sessionFile ? path.resolve(sessionFile) : path.join(root, SESSION_FILE);
  const snapshot = loadSnapshot({ root, task: 'session maintenance', policy, sessionFile, pins, changes: false });
  const storeFile = summaryStorePath(file);
  const storeLabel = displayPath(root, storeFile);
  const store = readSummaryStore(storeFile, storeLabel);
  const input: CompactionInput = {
    events: snapshot.session,
    source: displayPath(root, file),
    policy,
    records: store.records,
    constraints: constraintsFrom(collect(snapshot).value.blocks),
    knownSources: snapshot.files.map((f) => f.path),
    tokenizer: counterFor('o200k_base'),
  };
  return { input, storeFile, storeLabel, warnings: [...snapshot.warnings.filter((w) => w.source === input.source), ...store.warnings] };
}
