import * as fs from 'node:fs';
import type { SessionEvent, SessionEventType, Warning } from '../types';
import { redactSecrets } from './secrets';

const TYPES: readonly SessionEventType[] = ['user', 'assistant', 'tool_call', 'tool_result'];

/**
 * Parse a stored session (JSON lines). A corrupt line is reported with its line number and skipped; the rest
 * of the session survives.
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
    const { text: clean, found } = redactSecrets(String(v.text));
    if (found.length) warnings.push({ source, line, message: `secret redacted in session event (${found.map((f) => f.kind).join(', ')}): not sent` });
    events.push({
      id: String(v.id ?? `line-${line}`),
      ts: typeof v.ts === 'string' ? v.ts : undefined,
      type: v.type as SessionEventType,
      text: clean,
      call_id: typeof v.call_id === 'string' ? v.call_id : undefined,
      tool: typeof v.tool === 'string' ? v.tool : undefined,
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
export function appendSessionEvents(file: string, events: SessionEvent[]): void {
  const lines = events.map((e) => JSON.stringify({ id: e.id, ts: e.ts, type: e.type, text: e.text, call_id: e.call_id, tool: e.tool }));
  fs.appendFileSync(file, lines.map((l) => l + '\n').join(''));
}
