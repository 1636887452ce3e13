/**
 * The Trace tab as a table: the rows of the seed's trace layout, taken from the manifest's decisions (not from the
 * preformatted text), so the panel can wrap them at any width.
 */
import type { Decision, Decisions } from '../core/types';

export interface TraceRow {
  section: 'Tool output' | 'Session' | 'Documents' | 'Budget ladder';
  source: string;
  verdict: 'KEPT' | 'TRIMMED' | 'OFFLOADED' | 'DROPPED' | 'SUMMARY' | 'SELECTED' | 'REJECTED' | 'INDEXED' | 'DEGRADED';
  tokens?: number;
  /** false for an estimate (`~`). */
  exact: boolean;
  detail: string;
}

type TraceSections = Omit<Decisions, 'warnings'>;

const DOC_KINDS = new Set(['document', 'decision', 'source_code']);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function row(section: TraceRow['section'], verdict: TraceRow['verdict'], d: Decision, detail: string, exact: boolean, tokens = num(d.tokens)): TraceRow {
  return { section, source: d.source, verdict, ...(tokens !== undefined ? { tokens } : {}), exact, detail };
}

/** Rows in the trace's order: tool output, session, documents (selected, rejected, indexed), then the ladder's steps. */
export function traceRows(m: TraceSections): TraceRow[] {
  const out: TraceRow[] = [];
  const trimmed = new Map(m.trimmed.map((t) => [t.source, t]));
  const offloaded = new Set(m.offloaded.map((o) => o.source));
  const tools = m.selected.filter((s) => s.kind === 'tool_result' && !offloaded.has(s.source));
  for (const s of tools) {
    const t = trimmed.get(s.source);
    if (t) out.push(row('Tool output', 'TRIMMED', s, t.reason, true));
    else out.push(row('Tool output', 'KEPT', s, s.reason, true));
  }
  for (const o of m.offloaded) out.push(row('Tool output', 'OFFLOADED', o, `→ ${String(o.path ?? '')}${o.in_place ? ' (in place)' : ''}`, o.tokens_exact === true));
  for (const t of m.trimmed.filter((x) => !tools.some((s) => s.source === x.source) && !offloaded.has(x.source))) out.push(row('Tool output', 'DROPPED', t, t.reason, false));
  for (const c of m.compacted) out.push(row('Session', 'SUMMARY', c, `${String(c.range ?? '')}: ${c.reason}`.replace(/^: /, ''), true));
  for (const s of m.selected.filter((x) => x.kind === 'session_group')) out.push(row('Session', 'KEPT', s, s.reason, true));
  for (const d of m.selected.filter((x) => DOC_KINDS.has(x.kind))) out.push(row('Documents', 'SELECTED', d, d.reason, true));
  for (const d of m.rejected.filter((x) => x.kind === 'session_group')) out.push(row('Session', 'REJECTED', d, d.reason, false));
  for (const d of m.rejected.filter((x) => x.kind !== 'session_summary' && x.kind !== 'session_group')) out.push(row('Documents', 'REJECTED', d, d.reason, d.tokens_exact === true));
  for (const d of m.indexed) out.push(row('Documents', 'INDEXED', d, d.reason, d.tokens_exact === true));
  for (const d of m.degraded) out.push(row('Budget ladder', 'DEGRADED', d, d.reason, true));
  const order: TraceRow['section'][] = ['Tool output', 'Session', 'Documents', 'Budget ladder'];
  return out.sort((a, b) => order.indexOf(a.section) - order.indexOf(b.section));
}
