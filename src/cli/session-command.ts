import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { InputError } from '../core/errors';
import { formatNumber as num } from '../view-model/format';
import { compactSession, editSummary, previewCompaction, type CompactionPreview } from '../core/session/compaction';
import { sessionWorkspace } from '../core/session/maintenance';
import { workspaceStore } from '../core/session/store';
import { readSummaryStore, undoRecord } from '../core/session/summary-store';
import { ContextEngine } from '../core/engine';
import { diskHost } from '../host/disk';
import type { Warning } from '../core/types';

/** `ctxctl session show|compact|edit|undo`: preview, store, edit and undo the summary of the older session events. */

export const SESSION_USAGE = `Usage:
  ctxctl session show|compact|undo --workspace DIR [--session FILE] [--policy FILE] [--json]
  ctxctl session edit --workspace DIR --file SUMMARY.(json|yaml) [--session FILE] [--policy FILE] [--json]

  show     what the next call folds: events, tokens before → after, the summary and its validation
  compact  store a fresh summary of the folded events (no model configured: the extractive fallback)
  edit     store your edit of the active summary (validated first)
  undo     undo the active summary; the previous one, or none, becomes active
Summaries are stored beside the session, in <session>.summaries.jsonl (append-only).`;

const ACTIONS = ['show', 'compact', 'edit', 'undo'] as const;

export function sessionCommand(argv: string[], stdout: (s: string) => void, now: () => Date = () => new Date()): number {
  const [action, ...rest] = argv;
  if (action === '--help' || action === '-h') {
    stdout(SESSION_USAGE + '\n');
    return 0;
  }
  if (!(ACTIONS as readonly string[]).includes(action ?? '')) throw new InputError(`session: expected one of ${ACTIONS.join(', ')}, got "${action ?? ''}"\n\n${SESSION_USAGE}`);
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args: rest,
      options: { workspace: { type: 'string' }, session: { type: 'string' }, policy: { type: 'string' }, file: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (e) {
    throw new InputError(`session ${action}: ${(e as Error).message}\n\n${SESSION_USAGE}`);
  }
  if (typeof v.workspace !== 'string') throw new InputError(`session ${action}: --workspace DIR is required`);
  const root = path.resolve(v.workspace);
  const engine = new ContextEngine(diskHost, root);
  const policy = engine.policy(v.policy as string | undefined);
  const { input, store: sessionStore, storeLabel, warnings } = sessionWorkspace(engine, policy, workspaceStore(root, v.session as string | undefined));
  const store = { records: input.records };
  let message = '';
  if (action === 'compact') {
    const { record } = compactSession(input, now());
    sessionStore.appendSummary(record);
    message = `Stored summary ${record.id} (${record.producer}) of ${record.covers.from}…${record.covers.to} in ${storeLabel}`;
  } else if (action === 'edit') {
    if (typeof v.file !== 'string') throw new InputError('session edit: --file SUMMARY.(json|yaml) is required');
    const record = editSummary(input, readSummaryFile(v.file), now(), storeLabel);
    sessionStore.appendSummary(record);
    message = `Stored edit ${record.id} of ${record.based_on} in ${storeLabel}`;
  } else if (action === 'undo') {
    const record = undoRecord(store.records, now(), storeLabel);
    sessionStore.appendSummary(record);
    message = `Undid summary ${record.target} (record ${record.id} in ${storeLabel})`;
  }
  const after = readSummaryStore(sessionStore.summariesFile, storeLabel);
  const preview = previewCompaction({ ...input, records: after.records });
  if (v.json) stdout(JSON.stringify({ action, message: message || undefined, preview: preview ?? null, warnings }) + '\n');
  else stdout(renderPreview(preview, input.source, input.events.length, warnings, message));
  return 0;
}

function readSummaryFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new InputError('summary file not found', file);
  }
  try {
    return /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw new InputError(`invalid summary file: ${(e as Error).message.split('\n')[0]}`, file);
  }
}

export function renderPreview(p: CompactionPreview | undefined, source: string, stored: number, warnings: Warning[], message: string): string {
  const out: string[] = [];
  if (message) out.push(message, '');
  out.push(`SESSION ${source}`);
  if (!p) out.push(`  ${stored} stored events, all replayed raw: nothing to fold`);
  else {
    out.push(`  ${p.stored} stored events`);
    out.push(`  ${p.folded.ids.length} folded (${p.folded.range}, ${p.folded.groups} groups)`);
    out.push(`  ${p.kept_raw.events} kept raw (${p.kept_raw.range || 'none'}, ${p.kept_raw.groups} groups)`);
    out.push(`  ${p.omitted.length} omitted${p.omitted.length ? ` (${p.omitted.join(', ')}: tool results without their call)` : ''}`);
    out.push(`  tokens ${num(p.tokens_before)} → ${num(p.tokens_after)}`);
    out.push(`  summary: ${p.label}`);
    for (const n of p.notes) out.push(`  note: ${n}`);
    out.push(p.validation.ok ? '  validation: ACCEPTED' : `  validation: REJECTED, the raw events are replayed instead`);
    if (!p.validation.ok) for (const r of p.validation.reasons) out.push(`    - ${r}`);
    out.push('', p.text);
    if (p.history.length > 0) {
      out.push('', 'HISTORY');
      for (const h of p.history) {
        const what = h.action === 'undo' ? `undo ${h.target}` : `${h.action.padEnd(7)} ${h.producer} ${h.range}`;
        out.push(`  ${h.id.padEnd(4)} ${what}  ${h.created_at}${h.active ? '  ACTIVE' : h.action !== 'undo' && !h.live ? '  undone' : ''}`);
      }
    }
  }
  if (warnings.length > 0) {
    out.push('', 'WARNINGS');
    for (const w of warnings) out.push(`  ${[w.source, w.line].filter((x) => x !== undefined).join(':')}: ${w.message}`);
  }
  return out.join('\n') + '\n';
}
