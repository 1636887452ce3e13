import type { Manifest } from '../report/manifest';
import { num } from '../report/trace';
import type { Decision } from '../types';

/**
 * The decisions diff between variants: for every source any variant decided about, what each variant did with it
 * (loaded whole, loaded trimmed or as a summary, offloaded, rejected, indexed, compacted, or never mentioned) and
 * why. Only sources where the variants differ are listed: a different verdict, or the same verdict at a different
 * size. Pure: manifests in, entries out.
 */

export type Verdict = 'selected' | 'trimmed' | 'summarized' | 'offloaded' | 'rejected' | 'indexed' | 'compacted' | 'absent';

export interface VariantDecision {
  verdict: Verdict;
  /** Tokens the source has in the request (0 when it is not loaded). */
  tokens: number;
  reason: string;
}

export interface DiffEntry {
  source: string;
  kind: string;
  /** `loaded`: some variants send it and others do not; `verdict`: all or none send it, differently; `tokens`: same verdict, another size. */
  change: 'loaded' | 'verdict' | 'tokens';
  /** One per variant, in the variants' order. */
  variants: VariantDecision[];
}

export interface DecisionsDiff {
  variants: string[];
  entries: DiffEntry[];
  /** Sources every variant treated the same way. */
  same: number;
}

const LOADED: Verdict[] = ['selected', 'trimmed', 'summarized'];

export function isLoaded(v: Verdict): boolean {
  return LOADED.includes(v);
}

/** What one manifest did with one source. A selected source wins over the stage that reduced it. */
export function decisionOf(m: Manifest, source: string): VariantDecision {
  const pick = (list: Decision[]) => list.find((d) => d.source === source);
  const selected = pick(m.selected);
  if (selected) {
    const trimmed = pick(m.trimmed);
    const offloaded = pick(m.offloaded);
    const tokens = selected.tokens ?? 0;
    // An offloaded result is in the request only as its notice and preview.
    if (offloaded) return { verdict: 'offloaded', tokens, reason: `notice and preview only: ${offloaded.reason}` };
    if (trimmed) {
      const lines = trimmed.retained_lines !== undefined ? `, ${num(Number(trimmed.retained_lines))} of ${num(Number(trimmed.original_lines))} lines` : '';
      return { verdict: 'trimmed', tokens, reason: `${trimmed.original_tokens_exact === false ? '~' : ''}${num(Number(trimmed.original_tokens ?? 0))} → ${num(tokens)} tokens${lines}: ${trimmed.reason}` };
    }
    if (/summary only/.test(selected.reason)) return { verdict: 'summarized', tokens, reason: selected.reason };
    return { verdict: 'selected', tokens, reason: selected.reason };
  }
  for (const verdict of ['offloaded', 'rejected', 'indexed', 'compacted'] as const) {
    const d = pick(m[verdict]);
    if (d) return { verdict, tokens: 0, reason: d.reason };
  }
  const degraded = pick(m.degraded);
  if (degraded) return { verdict: 'rejected', tokens: 0, reason: degraded.reason };
  return { verdict: 'absent', tokens: 0, reason: 'no decision names it' };
}

function sourcesOf(m: Manifest): Decision[] {
  return [...m.selected, ...m.trimmed, ...m.offloaded, ...m.rejected, ...m.indexed, ...m.compacted, ...m.degraded];
}

export function diffDecisions(names: string[], manifests: Manifest[]): DecisionsDiff {
  const kinds = new Map<string, string>();
  for (const m of manifests) for (const d of sourcesOf(m)) if (!kinds.has(d.source)) kinds.set(d.source, String(d.kind));
  const entries: DiffEntry[] = [];
  let same = 0;
  for (const [source, kind] of kinds) {
    const variants = manifests.map((m) => decisionOf(m, source));
    const loaded = new Set(variants.map((v) => isLoaded(v.verdict)));
    const verdicts = new Set(variants.map((v) => v.verdict));
    const tokens = new Set(variants.map((v) => v.tokens));
    const change = loaded.size > 1 ? 'loaded' : verdicts.size > 1 ? 'verdict' : tokens.size > 1 ? 'tokens' : undefined;
    if (change) entries.push({ source, kind, change, variants });
    else same++;
  }
  const rank = { loaded: 0, verdict: 1, tokens: 2 };
  entries.sort((a, b) => rank[a.change] - rank[b.change] || a.source.localeCompare(b.source));
  return { variants: names, entries, same };
}
