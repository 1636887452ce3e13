import { hostFs as fs } from '../host';
import * as path from 'node:path';
import { displayPath, SESSION_FILE } from '../sources/snapshot';
import type { SessionEvent } from './event';
import { redactDeep } from '../redact/apply';
import { appendSessionEvents, readSessionChecked, writableStoreFile } from './file';
import type { SessionStoreRef } from './report';
import { appendSummaryRecord, readGuardedSummaryStore, summaryStorePath, type SummaryRecord } from './summary-store';

/**
 * Where a session is kept: the JSON-lines events and, beside them, the summary records. The chain only reads
 * (through the snapshot); the editor's send appends an exchange, and Compact/Edit/Undo append summary records.
 */
export interface SessionStore {
  /** What the manifest says was replayed. */
  ref(): SessionStoreRef;
  /** The absolute session file. */
  readonly file: string;
  /** The absolute summary store beside it. */
  readonly summariesFile: string;
  /** The session file to give `loadSnapshot` (undefined: the workspace's default file). */
  snapshotFile(): string | undefined;
  /** Append events (append-only: replay never rewrites the store). */
  append(events: SessionEvent[]): void;
  /** Append a summary record (compact, edit, undo) beside the events. */
  appendSummary(record: SummaryRecord): void;
}

/**
 * The workspace's session, `.context/session.jsonl` (or the file `--session` names): what `ctxctl` replays. The
 * editor uses it too in a trusted workspace, so the panel and `ctxctl preview` build the same request.
 */
export function workspaceStore(root: string, sessionFile?: string): SessionStore {
  const file = sessionFile ? path.resolve(sessionFile) : path.join(root, SESSION_FILE);
  const kind = sessionFile ? 'file' : 'workspace';
  return {
    file,
    summariesFile: summaryStorePath(file),
    ref: () => ({ kind, path: displayPath(root, file) }),
    snapshotFile: () => sessionFile,
    append: (events) => {
      // The workspace's own file stays in the workspace (`.context` linked elsewhere is refused); a named one is the caller's.
      writableStoreFile(file, 'the session events were not stored', sessionFile ? undefined : root);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      appendSessionEvents(file, events);
    },
    appendSummary: (record) => appendSummaryRecord(summaryStorePath(file), record, sessionFile ? undefined : root),
  };
}

export const EDITOR_STORE_NOTE =
  'restricted mode: the workspace is not written, so the editor records its exchanges and summaries in its own copy of .context/session.jsonl; ctxctl replays the workspace file, which lacks them';

/**
 * The editor's own copy, in its storage, for a restricted (untrusted) workspace, where nothing is written to the
 * workspace. Until the first write it does not exist and the workspace's session is replayed; the first write
 * starts from a copy of it.
 */
export function editorStore(root: string, storageDir: string): SessionStore {
  const file = path.join(storageDir, 'session.jsonl');
  const seed = workspaceStore(root);
  const exists = () => fs.existsSync(file);
  // The copy starts as what replay reads from the workspace's session and its summary records, so nothing replayed
  // changes by copying. Both are read as replay reads them (through the workspace guard: a session linked outside the
  // workspace is refused, a FIFO never opened) and written as replay sees them: secrets redacted, malformed lines
  // (reported on every replay of the workspace file) left out. The workspace's bytes are never copied as they are.
  const ensure = () => {
    if (exists()) return;
    const events = readSessionChecked(seed.file, SESSION_FILE, SESSION_FILE, { root }).events;
    const records = readGuardedSummaryStore(root, seed.summariesFile).records.map((r) => redactDeep(r));
    fs.mkdirSync(storageDir, { recursive: true });
    if (records.length > 0) fs.writeFileSync(summaryStorePath(file), records.map((r) => JSON.stringify(r) + '\n').join(''));
    fs.writeFileSync(file, '');
    if (events.length > 0) appendSessionEvents(file, events);
  };
  return {
    file,
    summariesFile: summaryStorePath(file),
    ref: () => (exists() ? { kind: 'editor', path: file, note: EDITOR_STORE_NOTE } : seed.ref()),
    snapshotFile: () => (exists() ? file : undefined),
    append: (events) => {
      ensure();
      appendSessionEvents(file, events);
    },
    // The summaries must sit beside the replayed events: the copy is made first.
    appendSummary: (record) => {
      ensure();
      appendSummaryRecord(summaryStorePath(file), record);
    },
  };
}

/** The editor's store: the workspace's own file when the workspace is trusted, else its copy in storage. */
export function editorSessionStore(root: string, storageDir: string, trusted: boolean): SessionStore {
  return trusted ? workspaceStore(root) : editorStore(root, storageDir);
}

/** The ref of a replayed session source when no store was given: the workspace file, or a named one. */
export function refForSource(source: string): SessionStoreRef {
  return { kind: source === SESSION_FILE ? 'workspace' : 'file', path: source };
}
