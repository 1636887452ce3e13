import type { Manifest } from './manifest';

import { formatNumber as num } from '../../view-model/format';

/** Thousands with a (narrow no-break) space, as the trace writes them: 11 000. */
export { num };

const right = (n: number | string, width: number) => String(n).padStart(width);

/**
 * The human-readable report of one call in the trace's layout (`MODEL REQUEST BUDGET` … `FINAL REQUEST`). Every figure comes from the manifest, which was
 * computed from the serialized request.
 */
/**
 * What the "Mandatory blocks" figure holds: the request with only the protected zone, counted alone, so it is the
 * protected zone of the budget bar, plus the session summary (never cut), plus the request's framing.
 */
export function mandatoryParts(m: Pick<Manifest, 'budget' | 'zones' | 'selected'>): { protected: number; summary: number; framing: number } {
  const summary = m.selected.filter((s) => s.kind === 'session_summary').reduce((n, s) => n + (s.tokens ?? 0), 0);
  const prot = m.zones.protected ?? 0;
  return { protected: prot, summary, framing: Math.max(0, m.budget.mandatory - prot - summary) };
}

export function mandatoryBreakdown(m: Pick<Manifest, 'budget' | 'zones' | 'selected'>): string {
  const p = mandatoryParts(m);
  return `protected ${num(p.protected)}${p.summary ? ` + session summary ${num(p.summary)}` : ''} + framing ${num(p.framing)}`;
}

/**
 * A trace lists at most this many rejected files one by one; past it, the first SHOWN_REJECTED_ROWS are listed and
 * the rest are counted by reason (a 100 000-file workspace printed a 31 MB trace). The manifest keeps every one.
 */
export const MAX_REJECTED_ROWS = 500;
export const SHOWN_REJECTED_ROWS = 200;

/**
 * Rejected files grouped by their reason up to its first parenthesis (what follows holds that file's own figures:
 * the words it mentions, its rank and score), in order of first appearance.
 */
export function rejectedGroups(rejected: readonly { reason: string }[]): { reason: string; count: number }[] {
  const groups = new Map<string, { reason: string; count: number }>();
  for (const d of rejected) {
    // (its head, without splitting the whole reason into parts: one per rejected file of the workspace)
    const cut = d.reason.indexOf(' (');
    const reason = cut === -1 ? d.reason : d.reason.slice(0, cut);
    const g = groups.get(reason);
    if (g) g.count++;
    else groups.set(reason, { reason, count: 1 });
  }
  return [...groups.values()];
}

/** A section of the trace: its heading and its rows. */
interface TraceSection {
  heading: string;
  rows: string[];
}

/** The whole trace: every section, in order. */
export function renderTrace(m: Manifest): string {
  return joinSections(traceSections(m));
}

/** The sections a short trace keeps: the budget at the top and the final request. */
const SHORT_SECTIONS = ['MODEL REQUEST BUDGET', 'FINAL REQUEST'];

/**
 * The trace with only its budget and its final request, for an answer that must be short (an agent's tool answer
 * over the client's limit); `left` counts the rows of the other sections, all of which stay in the manifest.
 */
export function renderShortTrace(m: Manifest): { text: string; left: number } {
  const sections = traceSections(m);
  const left = sections.filter((x) => !SHORT_SECTIONS.includes(x.heading)).reduce((n, x) => n + x.rows.length, 0);
  return { text: joinSections(sections.filter((x) => SHORT_SECTIONS.includes(x.heading))), left };
}

function joinSections(sections: TraceSection[]): string {
  return sections.map((x) => [x.heading, ...x.rows].join('\n')).join('\n\n') + '\n';
}

function traceSections(m: Manifest): TraceSection[] {
  const sections: TraceSection[] = [];
  let out: string[] = [];
  const section = (heading: string) => sections.push({ heading, rows: (out = []) });
  const b = m.budget;
  section('MODEL REQUEST BUDGET');
  out.push(`  Maximum input          ${right(num(b.max_input), 7)}`);
  out.push(`  Mandatory blocks       ${right(num(b.mandatory), 7)}  (${mandatoryBreakdown(m)})`);
  out.push(`  Available for context  ${right(num(b.max_input - b.mandatory), 7)}`);
  out.push(`  Model                  ${m.model} (${m.encoding}${m.encoding_approximate ? ', approximate' : ''}, ${m.shape} shape)`);

  section('TOOL OUTPUT');
  const tools = m.selected.filter((s) => s.kind === 'tool_result');
  const trimmedBySource = new Map(m.trimmed.map((t) => [t.source, t]));
  const offloaded = new Set(m.offloaded.map((o) => o.source));
  for (const s of tools) {
    if (offloaded.has(s.source)) continue;
    const t = trimmedBySource.get(s.source);
    if (t) {
      const approx = t.original_tokens_exact === false ? '~' : '';
      out.push(`  ${s.source.padEnd(28)} TRIMMED   ${approx}${num(Number(t.original_tokens))} → ${num(s.tokens ?? 0)}  (${num(Number(t.retained_lines))} of ${num(Number(t.original_lines))} lines)`);
    } else out.push(`  ${s.source.padEnd(28)} KEPT      ${num(s.tokens ?? 0)}`);
  }
  for (const o of m.offloaded) out.push(`  ${o.source.padEnd(28)} OFFLOADED ${o.tokens_exact === false ? '~' : ''}${num(o.tokens ?? 0)} → ${o.path}${o.in_place ? ' (in place)' : ''}`);
  for (const t of m.trimmed.filter((t) => !tools.some((s) => s.source === t.source))) out.push(`  ${t.source.padEnd(28)} DROPPED   ${t.reason}`);
  if (tools.length === 0 && m.offloaded.length === 0 && m.trimmed.length === 0) out.push('  (none)');

  section('SESSION');
  const s = m.session;
  const w = Math.max(2, String(s.stored).length);
  out.push(`  ${right(s.stored, w)} stored events`);
  out.push(`  ${right(s.kept_raw, w)} recent events kept raw`);
  out.push(`  ${right(s.compacted, w)} old events compacted`);
  out.push(`  ${right(s.omitted, w)} events omitted`);
  const sum = s.summary;
  if (sum?.status === 'accepted') out.push(`  summary of ${sum.range}: ${num(sum.tokens_before)} → ${num(sum.tokens_after ?? 0)} tokens, ${sum.label}`);
  if (sum?.status === 'rejected') out.push(`  summary of ${sum.range} REJECTED, raw events kept: ${(sum.reasons ?? []).join('; ')}`);

  section('DOCUMENTS');
  const docKinds = new Set(['document', 'decision', 'source_code']);
  const row = (source: string, verdict: string, detail: string) => out.push(`  ${source.padEnd(44)} ${verdict.padEnd(9)} ${detail}`.trimEnd());
  for (const d of m.selected.filter((x) => docKinds.has(x.kind))) row(d.source, 'SELECTED', `${num(d.tokens ?? 0)} tokens, ${d.reason}`);
  // What the ladder removed is listed once, under DEGRADED.
  const rejected = m.rejected.filter((x) => x.kind !== 'session_summary' && x.ladder === undefined);
  const shown = rejected.length > MAX_REJECTED_ROWS ? SHOWN_REJECTED_ROWS : rejected.length;
  for (const d of rejected.slice(0, shown)) row(d.source, 'REJECTED', d.reason);
  for (const g of rejectedGroups(rejected.slice(shown))) out.push(`  … ${num(g.count)} more REJECTED: ${g.reason}`);
  if (shown < rejected.length) out.push(`  (every rejected file and its reason is in the manifest: --json or --out)`);
  for (const d of m.indexed.filter((x) => docKinds.has(x.kind))) row(d.source, 'INDEXED', d.reason.includes('available on demand') ? d.reason : `available on demand (${d.reason})`);
  for (const d of m.degraded) row(d.source, 'DEGRADED', d.reason);

  if (m.warnings.length > 0) {
    section('WARNINGS');
    for (const w of m.warnings) out.push(`  ${[w.source, w.line, w.column].filter((x) => x !== undefined).join(':')}: ${w.message}`);
  }

  if (m.redactions?.length) {
    section('REDACTIONS (secrets replaced by [REDACTED:rule], not sent)');
    for (const r of m.redactions) out.push(`  ${[r.source, r.line].filter((x) => x !== undefined).join(':')}  ${r.rule}  (${r.stage})`);
  }

  section('FINAL REQUEST');
  out.push(`  ${num(b.final)} / ${num(b.max_input)} tokens  (${num(m.request_bytes)} bytes)`);
  const zones = Object.entries(m.zones).filter(([, n]) => n > 0).map(([z, n]) => `${z} ${num(n)}`);
  if (b.overhead !== undefined) out.push(`  ${[...zones, `overhead ${num(b.overhead)}`].join(' + ')}; free ${num(b.free)}`);
  if (m.cache) out.push(`  stable prefix ${num(m.cache.prefix_tokens)} tokens (${m.cache.prefix_hash})${m.cache.changed === undefined ? '' : m.cache.changed ? ', CHANGED since the previous call' : ', unchanged since the previous call'}`);
  return sections;
}
