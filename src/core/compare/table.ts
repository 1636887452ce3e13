import { num } from '../report/trace';
import { PRICE_TABLE } from './cost';
import type { DiffEntry } from './diff';
import { variantSpread, type CompareResult, type Spread, type VariantResult } from './run';

/**
 * The comparison as a readable table, in the trace's layout: one column per variant, the budget and
 * zones, the decisions, the evidence checks, then (after a send) the runs' figures with their spread, the decisions
 * diff with a marker and a word for each change, and every failing check with what was found.
 */

const ZONES = ['protected', 'session', 'index', 'documents', 'tool_results'];
const SECTIONS = ['selected', 'rejected', 'trimmed', 'offloaded', 'indexed', 'compacted'] as const;
export const CHANGE_LABEL: Record<DiffEntry['change'], { mark: string; word: string }> = {
  loaded: { mark: '±', word: 'LOADED BY SOME' },
  verdict: { mark: '≠', word: 'OTHER VERDICT' },
  tokens: { mark: '~', word: 'OTHER SIZE' },
};

export function evidenceTally(v: VariantResult): { passed: number; total: number } {
  const all = v.evidence.flatMap((c) => c.evidence);
  return { passed: all.filter((c) => c.ok).length, total: all.length };
}

export function renderCompare(result: CompareResult): string {
  const { variants } = result;
  const width = Math.max(16, ...variants.map((v) => v.name.length + 2));
  const out: string[] = [];
  const row = (label: string, cells: string[], note = '') => out.push(`  ${label.padEnd(24)} ${cells.map((c) => c.padStart(width)).join('')}${note ? `   ${note}` : ''}`);
  const first = variants[0]?.manifest;
  const sent = result.provider !== 'dry-run';
  out.push(`COMPARE  ${result.task}  ·  ${result.model} (${first?.encoding ?? '?'})  ·  ${sent ? `${result.provider}, ${variants[0]?.runs.length ?? 0} run(s) per variant` : 'dry run: nothing sent'}`);
  for (const v of variants) out.push(`  ${v.name.padEnd(24)} policy ${v.policy}`);
  out.push('');
  out.push(`MODEL REQUEST BUDGET ${' '.repeat(4)}${variants.map((v) => v.name.padStart(width)).join('')}`);
  row('Maximum input', variants.map((v) => num(v.manifest.budget.max_input)));
  row('Mandatory blocks', variants.map((v) => num(v.manifest.budget.mandatory)));
  for (const z of ZONES) row(`Zone ${z}`, variants.map((v) => num(v.manifest.zones[z] ?? 0)));
  row('FINAL REQUEST', variants.map((v) => num(v.manifest.budget.final)), deltaNote(variants.map((v) => v.manifest.budget.final)));
  row('Request bytes', variants.map((v) => num(v.manifest.request_bytes)));
  out.push('');
  out.push('BLOCKS');
  for (const s of SECTIONS) row(s, variants.map((v) => String(v.manifest[s].length)));
  row('degraded (ladder steps)', variants.map((v) => String(v.manifest.degraded.length)));
  if (variants.some((v) => v.evidence.length > 0)) {
    row('Evidence checks', variants.map((v) => tally(evidenceTally(v))));
  }
  if (sent) renderRuns(result, row, out);
  out.push('');
  renderDiff(result, out);
  const failures = variants.flatMap((v) => [
    ...v.evidence.flatMap((c) => c.evidence.filter((x) => !x.ok).map((x) => `  ✗ FAIL  ${v.name}  ${c.case}: ${x.expectation}: ${x.found}`)),
    ...v.runs.flatMap((r) => r.checks.filter((x) => !x.ok).map((x) => `  ✗ FAIL  ${v.name} run ${r.run}: answer ${x.expectation}: ${x.found}`)),
  ]);
  if (variants.some((v) => v.evidence.length > 0 || v.runs.some((r) => r.checks.length > 0))) {
    out.push('');
    out.push('CHECKS');
    out.push(...(failures.length ? failures : ['  ✓ every check holds in every variant']));
  }
  return out.join('\n') + '\n';
}

function renderRuns(result: CompareResult, row: (label: string, cells: string[], note?: string) => void, out: string[]): void {
  const spreads = result.variants.map(variantSpread);
  const cell = (s: Spread | undefined, digits = 0) => (s ? fmt(s.mean, digits) + (s.min !== s.max ? ` (${fmt(s.min, digits)}–${fmt(s.max, digits)})` : '') : 'n/a');
  out.push('');
  out.push(`RUNS  (mean, min–max over the runs; tokens as the provider reported them)`);
  row('Input tokens', spreads.map((s) => cell(s.input_tokens)));
  row('Cached input tokens', spreads.map((s) => cell(s.cached_tokens)));
  row('Output tokens', spreads.map((s) => cell(s.output_tokens)));
  row('Latency ms', spreads.map((s) => cell(s.latency_ms)));
  row(`Cost USD`, spreads.map((s) => cell(s.cost_usd, 5)), `prices of ${PRICE_TABLE.as_of}; n/a: model not in the table or no usage reported`);
  row('Steps', result.variants.map((v) => v.runs.map((r) => r.steps).join('/')));
  row(
    'Answer checks',
    result.variants.map((v) => tally({ passed: v.runs.reduce((n, r) => n + r.checks.filter((c) => c.ok).length, 0), total: v.runs.reduce((n, r) => n + r.checks.length, 0) })),
  );
  for (const v of result.variants) {
    for (const r of v.runs) out.push(`  ${`${v.name} run ${r.run}`.padEnd(24)} ${r.error ? `ERROR ${r.error}` : `"${oneLine(r.answer, 100)}"`}`);
  }
}

function renderDiff(result: CompareResult, out: string[]): void {
  const { diff } = result;
  out.push(`DECISIONS DIFF  (${diff.entries.length} source(s) differ, ${diff.same} treated alike)`);
  if (diff.entries.length === 0) out.push('  = every variant took the same decisions');
  for (const e of diff.entries) {
    const label = CHANGE_LABEL[e.change];
    out.push(`  ${label.mark} ${label.word.padEnd(15)} ${e.source}  (${e.kind})`);
    e.variants.forEach((d, i) => {
      const name = diff.variants[i];
      out.push(`      ${name.padEnd(18)} ${d.verdict.toUpperCase().padEnd(10)} ${d.tokens ? num(d.tokens).padStart(7) : '      -'}  ${oneLine(d.reason, 400)}`);
    });
  }
}

function tally(t: { passed: number; total: number }): string {
  return t.total === 0 ? '-' : `${t.passed}/${t.total}${t.passed === t.total ? ' ✓' : ' ✗'}`;
}

function deltaNote(values: number[]): string {
  if (values.length < 2) return '';
  const base = values[0];
  return values
    .slice(1)
    .map((v) => `${v - base >= 0 ? '+' : '−'}${num(Math.abs(v - base))} (${base ? `${(((v - base) / base) * 100).toFixed(1)}%` : 'n/a'})`)
    .join(', ');
}

function fmt(n: number, digits: number): string {
  return digits ? n.toFixed(digits) : num(n);
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
