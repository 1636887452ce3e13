import { hostFs as fs } from '../host';
import { InputError } from '../errors';
import { checkInputFile, fsReason } from '../sources/scan';
import type { Warning } from '../types';
import * as path from 'node:path';
import { resolveInWorkspace, type GuardOptions } from '../sources/guard';
import type { SessionEvent, SessionEventType } from './event';
import { safeId, SAFE_ID } from '../redact/safe-id';
import { holdsSecret, redact } from '../redact/apply';

const TYPES: readonly SessionEventType[] = ['user', 'assistant', 'tool_call', 'tool_result'];

/** An event id: short, plain, no secret (it is written in attributes, block sources and the manifest). */
export const EVENT_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Parse a stored session (JSON lines). A corrupt line is reported with its line number and skipped; the rest
 * of the session survives. Stored text is data: secrets are redacted (reported with line and rule); an event id
 * that is not a plain id becomes `line-N`; a call id that a provider would refuse (or that holds a secret)
 * becomes a stable stand-in, the same for the call and its results; a tool call whose tool name no provider
 * accepts is skipped with its reason (its results are then reported as orphans and not replayed), because it
 * cannot be replayed as a call.
 */
export function parseSession(text: string, source: string): { events: SessionEvent[]; warnings: Warning[] } {
  const events: SessionEvent[] = [];
  const warnings: Warning[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      warnings.push({ source, line, message: `corrupt session line skipped: ${(e as Error).message}` });
      return;
    }
    const problem = invalidEvent(value);
    if (problem) {
      warnings.push({ source, line, message: `invalid session event skipped: ${problem}` });
      return;
    }
    const v = value as Record<string, unknown>;
    const tool = typeof v.tool === 'string' ? v.tool : undefined;
    if (v.type === 'tool_call' && tool !== undefined && !SAFE_ID.test(tool)) {
      warnings.push({ source, line, message: `invalid session event skipped: tool name is not ${SAFE_ID.source} (a name providers accept), so the call cannot be replayed` });
      return;
    }
    if (tool !== undefined && !SAFE_ID.test(tool)) warnings.push({ source, line, message: `tool name is not ${SAFE_ID.source}: left out of the replayed ${String(v.type)}` });
    const { text: clean, found } = redact(String(v.text));
    for (const f of found) warnings.push({ source, line: line, rule: f.rule, message: `secret redacted in session event (${f.rule}, line ${f.line} of its text): not sent` });
    let id = v.id === undefined ? `line-${line}` : String(v.id);
    if (!EVENT_ID.test(id) || holdsSecret(id)) {
      const rule = redact(id).found[0]?.rule;
      id = `line-${line}`;
      warnings.push({ source, line, ...(rule ? { rule } : {}), message: `session event id is not ${EVENT_ID.source} or holds a secret: replayed as ${id}` });
    }
    let callId = typeof v.call_id === 'string' ? v.call_id : undefined;
    if (callId !== undefined && safeId(callId) !== callId) {
      callId = safeId(callId);
      warnings.push({ source, line, message: `call_id is not ${SAFE_ID.source} or holds a secret: replayed as ${callId}` });
    }
    events.push({
      id,
      ts: typeof v.ts === 'string' ? v.ts : undefined,
      type: v.type as SessionEventType,
      text: clean,
      call_id: callId,
      tool: tool !== undefined && SAFE_ID.test(tool) ? tool : undefined,
      line,
    });
  });
  return { events, warnings };
}

function invalidEvent(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (!TYPES.includes(v.type as SessionEventType)) return `"type" must be one of ${TYPES.join(', ')}`;
  if (typeof v.text !== 'string') return '"text" must be a string';
  if ((v.type === 'tool_call' || v.type === 'tool_result') && typeof v.call_id !== 'string') return `a ${v.type} needs a "call_id"`;
  return undefined;
}

export function readSessionFile(file: string, label: string): { events: SessionEvent[]; warnings: Warning[] } {
  if (!fs.existsSync(file)) return { events: [], warnings: [] };
  return parseSession(fs.readFileSync(file, 'utf8'), label);
}

/** Append events to a stored session. The store is append-only: replay never rewrites it. */
export function appendSessionEvents(file: string, events: SessionEvent[], root?: string): void {
  // Never open a FIFO, device or symlink for writing: only a regular file, or a new one, is appended to.
  writableStoreFile(file, 'the session events were not stored', root);
  const lines = events.map((e) => JSON.stringify({ id: e.id, ts: e.ts, type: e.type, text: e.text, call_id: e.call_id, tool: e.tool }));
  fs.appendFileSync(file, lines.map((l) => l + '\n').join(''));
}

/**
 * A store file about to be appended to, through the workspace guard (sources/guard.ts, write access): not a link, a
 * FIFO, a device or a folder, not a file with other hard links (another name of it may be outside the workspace), and
 * with `root`, inside the workspace through the folders on its way (`.context` linked elsewhere).
 */
export function writableStoreFile(file: string, unused: string, root?: string): void {
  const d = resolveInWorkspace(file, { root: root ?? path.dirname(file), access: 'write', mayBeMissing: true, refuseSecrets: false });
  if (d.ok) return;
  if (d.kind === 'link' || d.kind === 'special' || d.kind === 'folder') throw new InputError(`is not a regular file: ${unused}`, file);
  throw new InputError(`${d.why.replace(/: refused, not written.*$/, '')}: ${unused}`, file);
}

/** The session file after the checks every input file gets: a folder is bad input; a FIFO or device is skipped. */
export function readSessionChecked(abs: string, shown: string, label: string, guard?: GuardOptions): ReturnType<typeof readSessionFile> {
  const kind = checkInputFile(abs, { shown, label, what: 'a session file (JSON lines)', unused: 'no session replayed' }, guard);
  if (kind !== 'file') return { events: [], warnings: kind === 'absent' ? [] : [kind] };
  try {
    return readSessionFile(abs, label);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read session file: ${fsReason(e)}`, shown);
  }
}
