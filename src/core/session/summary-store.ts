import { hostFs as fs, type HostStats } from '../host';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { InputError } from '../errors';
import { writableStoreFile } from './file';
import { resolveInWorkspace } from '../sources/guard';
import { displayPath } from '../sources/task-file';
import type { SessionEvent, Warning } from '../types';
import { checkSchema, type SessionSummary } from './schema';

/**
 * Summaries stored beside the events (`session.jsonl` → `session.summaries.jsonl`), append-only like the session:
 * a compaction, an edit and an undo are each one record, so every step can be shown and reverted. The record on
 * top of the stack (compactions and edits, minus undone ones) is the active summary. Pure functions over records,
 * plus thin file I/O at the end.
 */

/** The events a summary covers: first and last id, count, and a hash of their content (detects a changed store). */
export interface SummaryRange {
  from: string;
  to: string;
  events: number;
  hash: string;
}

export interface StoredSummary {
  id: string;
  action: 'compact' | 'edit';
  created_at: string;
  /** `extractive`, `model:<name>`, or `edit`. */
  producer: string;
  covers: SummaryRange;
  summary: SessionSummary;
  /** For an edit: the record it replaces. */
  based_on?: string;
}

export interface UndoRecord {
  id: string;
  action: 'undo';
  created_at: string;
  target: string;
}

export type SummaryRecord = StoredSummary | UndoRecord;

export function summaryStorePath(sessionFile: string): string {
  return sessionFile.replace(/(\.jsonl?)?$/, '.summaries.jsonl');
}

export function rangeOf(events: SessionEvent[]): SummaryRange {
  const hash = createHash('sha1');
  for (const e of events) hash.update(JSON.stringify([e.id, e.type, e.text, e.call_id ?? null, e.tool ?? null]) + '\n');
  return { from: events[0]?.id ?? '', to: events.at(-1)?.id ?? '', events: events.length, hash: hash.digest('hex') };
}

export const rangeLabel = (r: Pick<SummaryRange, 'from' | 'to'>) => `${r.from}…${r.to}`;

/** Parse the store. A corrupt or invalid line is reported with its line number and skipped. */
export function parseSummaryStore(text: string, source: string): { records: SummaryRecord[]; warnings: Warning[] } {
  const records: SummaryRecord[] = [];
  const warnings: Warning[] = [];
  text.replace(/\r\n?/g, '\n').split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      warnings.push({ source, line: i + 1, message: `corrupt summary record skipped: ${(e as Error).message}` });
      return;
    }
    const problem = invalidRecord(value);
    if (problem) warnings.push({ source, line: i + 1, message: `invalid summary record skipped: ${problem}` });
    else records.push(value as SummaryRecord);
  });
  return { records, warnings };
}

function invalidRecord(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || typeof v.created_at !== 'string') return 'needs "id" and "created_at" strings';
  if (v.action === 'undo') return typeof v.target === 'string' ? undefined : 'an undo needs a "target"';
  if (v.action !== 'compact' && v.action !== 'edit') return '"action" must be compact, edit or undo';
  const c = v.covers as Record<string, unknown> | undefined;
  if (!c || typeof c.from !== 'string' || typeof c.to !== 'string' || typeof c.events !== 'number' || typeof c.hash !== 'string') {
    return '"covers" needs from, to, events and hash';
  }
  if (typeof v.producer !== 'string') return '"producer" must be a string';
  const { errors } = checkSchema(v.summary);
  return errors.length > 0 ? `summary: ${errors[0]}` : undefined;
}

/** The stack of live summaries, oldest first: each undo removes the record it targets. */
export function liveSummaries(records: SummaryRecord[]): StoredSummary[] {
  const stack: StoredSummary[] = [];
  for (const r of records) {
    if (r.action === 'undo') {
      const at = stack.findIndex((s) => s.id === r.target);
      if (at >= 0) stack.splice(at, 1);
    } else stack.push(r);
  }
  return stack;
}

export function activeSummary(records: SummaryRecord[]): StoredSummary | undefined {
  return liveSummaries(records).at(-1);
}

function nextId(records: SummaryRecord[]): string {
  const taken = new Set(records.map((r) => r.id));
  let n = records.length + 1;
  while (taken.has(`s${n}`)) n++;
  return `s${n}`;
}

/** A new compaction record. */
export function compactRecord(records: SummaryRecord[], summary: SessionSummary, producer: string, covers: SummaryRange, now: Date): StoredSummary {
  return { id: nextId(records), action: 'compact', created_at: now.toISOString(), producer, covers, summary };
}

/** An edit of the active summary: same range, the user's text. */
export function editRecord(records: SummaryRecord[], summary: SessionSummary, now: Date, store: string): StoredSummary {
  const active = activeSummary(records);
  if (!active) throw new InputError('nothing to edit: no active summary (run `ctxctl session compact` first)', store);
  return { id: nextId(records), action: 'edit', created_at: now.toISOString(), producer: 'edit', covers: active.covers, summary, based_on: active.id };
}

/** Undo the active summary: the one below it (if any) becomes active again. */
export function undoRecord(records: SummaryRecord[], now: Date, store: string): UndoRecord {
  const active = activeSummary(records);
  if (!active) throw new InputError('nothing to undo: no active summary', store);
  return { id: nextId(records), action: 'undo', created_at: now.toISOString(), target: active.id };
}

// ---- thin file I/O -------------------------------------------------------------------------------------------

export function readSummaryStore(file: string, label: string): { records: SummaryRecord[]; warnings: Warning[] } {
  const st = statOrNone(() => fs.statSync(file, { throwIfNoEntry: false }));
  if (!st) return { records: [], warnings: [] };
  if (st.isDirectory()) throw new InputError('is a folder, not a summary store (JSON lines)', label);
  // A FIFO or device is never opened (reading it would block): skipped, with a warning.
  if (!st.isFile()) return { records: [], warnings: [{ source: label, message: 'skipped: not a regular file (a FIFO or device), never opened; no stored summary used' }] };
  return parseSummaryStore(fs.readFileSync(file, 'utf8'), label);
}

/** The summaries stored beside a workspace's session (or the given session file), for `assemble`'s `summaries`. */
export function workspaceSummaries(root: string, sessionFile?: string): { records: SummaryRecord[]; warnings: Warning[] } {
  const store = summaryStorePath(sessionFile ? path.resolve(sessionFile) : path.join(root, '.context', 'session.jsonl'));
  return readGuardedSummaryStore(root, store, Boolean(sessionFile));
}

/**
 * A summary store read through the workspace guard: the workspace's own store (`.context` linked elsewhere) may not
 * lead outside it; a store the user named (`outsideAsNamed`) may. A FIFO or device is reported, never opened.
 */
export function readGuardedSummaryStore(root: string, store: string, outsideAsNamed = false): { records: SummaryRecord[]; warnings: Warning[] } {
  const label = displayPath(root, store);
  const d = resolveInWorkspace(store, { root, outsideAsNamed, expect: 'any', mayBeMissing: true, refuseSecrets: false });
  if (!d.ok && d.kind !== 'special') throw new InputError(d.why, label);
  return readSummaryStore(store, label);
}

export function appendSummaryRecord(file: string, record: SummaryRecord, root?: string): void {
  // Never open a FIFO or device for writing (it would block): only a regular file, or a new one, is appended to.
  writableStoreFile(file, 'the summary was not stored', root);
  fs.appendFileSync(file, JSON.stringify(record) + '\n');
}

/** A stat that reads "not there" for a path below a file (ENOTDIR) as for a missing one. */
function statOrNone(stat: () => HostStats | undefined): HostStats | undefined {
  try {
    return stat();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}
