import type { Policy } from '../policy';
import type { Assembly } from './pipeline';

/** What the search needs: the current window, and an assembly of the same inputs at another window. */
export interface FitSearch {
  policy: Policy;
  /** The sources the budget dropped (the panel's key evidence). */
  sources: string[];
  /** Assemble the same snapshot with this window (output reserve and margin unchanged); throws on a refusal. */
  assembleAt: (window: number) => Assembly;
  /** Assemblies allowed in all (the first found bound, then the bisection). */
  probes?: number;
  /** Stop probing (a time budget, in the host); the best window verified so far is returned. */
  stop?: () => boolean;
  /** Tokens the dropped sources need (their figures in the manifest): the first window tried is the current one plus these. */
  needed?: number;
  /** The answer's granularity in tokens. */
  step?: number;
}

/** Every dropped source is sent (whole, trimmed or as an excerpt: `file#…` counts as its file). */
function sendsAll(a: Assembly, sources: string[]): boolean {
  const sent = new Set(a.blocks.map((b) => b.source.replace(/#.*$/, '')));
  return sources.every((s) => sent.has(s));
}

/**
 * The smallest window (to `step` tokens) at which the chain sends every dropped source, found by assembling for
 * real: up from the current window by the tokens still missing until one holds them all, then bisected down.
 * Undefined when none was verified within the probes (or the time budget).
 */
export function windowToFit(f: FitSearch): number | undefined {
  const step = f.step ?? 100;
  const current = f.policy.envelope.window;
  let probes = f.probes ?? 8;
  const round = (w: number) => Math.ceil(w / step) * step;
  const tryAt = (w: number): { ok: boolean; missing: number } => {
    probes--;
    try {
      const a = f.assembleAt(w);
      if (sendsAll(a, f.sources)) return { ok: true, missing: 0 };
      const left = new Set(f.sources.filter((s) => !a.blocks.some((b) => b.source.replace(/#.*$/, '') === s)));
      const missing = [...a.manifest.rejected, ...a.manifest.indexed].filter((d) => left.has(d.source)).reduce((n, d) => n + (typeof d.tokens === 'number' ? d.tokens : 0), 0);
      return { ok: false, missing };
    } catch {
      return { ok: false, missing: 0 };
    }
  };
  let low = current;
  let high: number | undefined;
  let w = round(current + Math.max(step, f.needed ?? 0));
  while (probes > 0 && !f.stop?.()) {
    const r = tryAt(w);
    if (r.ok) {
      high = w;
      break;
    }
    low = w;
    w = round(w + Math.max(step, r.missing, Math.ceil(w * 0.1)));
  }
  if (high === undefined) return undefined;
  while (probes > 0 && high - low > step && !f.stop?.()) {
    const mid = round((low + high) / 2);
    if (mid >= high || mid <= low) break;
    if (tryAt(mid).ok) high = mid;
    else low = mid;
  }
  return high;
}
