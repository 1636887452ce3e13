import { formatNumber } from '../view-model/format';
import type { Manifest } from './report/manifest';

export type RunLogEntry = { kind: 'ok'; manifest: Manifest; timings?: { stage: string; ms: number }[] } | { kind: 'empty' | 'refused' | 'error'; message: string };

const STAGES: [keyof Manifest, string][] = [
  ['selected', 'selected'],
  ['rejected', 'rejected (collect, prune, overrides, fill)'],
  ['trimmed', 'trimmed (trim)'],
  ['offloaded', 'offloaded (offload)'],
  ['indexed', 'indexed (disclose, fill)'],
  ['compacted', 'compacted (session)'],
  ['degraded', 'ladder steps (enforce)'],
];

/** The log lines of one run: the outcome and its duration, then what each stage decided. */
export function runLogLines(entry: RunLogEntry, ms: number | undefined): string[] {
  const took = ms === undefined ? '' : ` in ${formatNumber(ms)} ms`;
  if (entry.kind !== 'ok') return [`run ${entry.kind}${took}: ${entry.message.split('\n')[0]}`, ...entry.message.split('\n').slice(1)];
  const m = entry.manifest;
  const lines = [`run ok${took}: ${m.model} (${m.encoding}), ${formatNumber(m.budget.final)} / ${formatNumber(m.budget.max_input)} tokens, protected ${formatNumber(m.budget.mandatory)}`];
  if (entry.timings?.length) lines.push(`  stages: ${entry.timings.map((t) => `${t.stage} ${t.ms < 10 ? t.ms.toFixed(1) : formatNumber(t.ms)} ms`).join(' · ')}`);
  for (const [key, label] of STAGES) {
    const list = m[key] as { source: string; reason: string }[];
    lines.push(`  ${label}: ${list.length}`);
    if (key === 'degraded' || key === 'rejected') for (const d of list) lines.push(`    ${d.source}: ${d.reason}`);
  }
  lines.push(`  warnings: ${m.warnings.length}`);
  for (const w of m.warnings) lines.push(`    ${w.source}${w.line ? `:${w.line}` : ''}: ${w.message}`);
  return lines;
}
