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

/** One step of the search: the window to assemble at next, and the smallest window verified so far. */
export interface FitProbe {
  window: number;
  best?: number;
}

/**
 * The search as steps, so a caller can pause (and give up) between assemblies: yields each window to try, is given
 * the assembly at it (undefined: refused), returns the smallest window (to `step` tokens) at which the chain sends
 * every dropped source: up from the current window by the tokens still missing until one holds them all, then
 * bisected down. Undefined when none was verified within the probes.
 */
export function* fitProbes(f: Omit<FitSearch, 'assembleAt' | 'stop'>): Generator<FitProbe, number | undefined, Assembly | undefined> {
  const step = f.step ?? 100;
  const current = f.policy.envelope.window;
  let probes = f.probes ?? 8;
  const round = (w: number) => Math.ceil(w / step) * step;
  let low = current;
  let high: number | undefined;
  const tryAt = function* (w: number): Generator<FitProbe, { ok: boolean; missing: number }, Assembly | undefined> {
    probes--;
    const a = yield { window: w, ...(high !== undefined ? { best: high } : {}) };
    if (!a) return { ok: false, missing: 0 };
    if (sendsAll(a, f.sources)) return { ok: true, missing: 0 };
    const left = new Set(f.sources.filter((s) => !a.blocks.some((b) => b.source.replace(/#.*$/, '') === s)));
    const missing = [...a.manifest.rejected, ...a.manifest.indexed].filter((d) => left.has(d.source)).reduce((n, d) => n + (typeof d.tokens === 'number' ? d.tokens : 0), 0);
    return { ok: false, missing };
  };
  let w = round(current + Math.max(step, f.needed ?? 0));
  while (probes > 0) {
    const r = yield* tryAt(w);
    if (r.ok) {
      high = w;
      break;
    }
    low = w;
    w = round(w + Math.max(step, r.missing, Math.ceil(w * 0.1)));
  }
  if (high === undefined) return undefined;
  while (probes > 0 && high - low > step) {
    const mid = round((low + high) / 2);
    if (mid >= high || mid <= low) break;
    if ((yield* tryAt(mid)).ok) high = mid;
    else low = mid;
  }
  return high;
}

/** Assemble at a window; a refusal (or any failure) is "does not send it all". */
function attempt(assembleAt: (w: number) => Assembly, w: number): Assembly | undefined {
  try {
    return assembleAt(w);
  } catch {
    return undefined;
  }
}

/**
 * The smallest window at which the chain sends every dropped source (fitProbes), assembling synchronously; `stop`
 * ends the search early with the best window verified so far.
 */
export function windowToFit(f: FitSearch): number | undefined {
  const search = fitProbes(f);
  let next = search.next();
  while (!next.done) {
    if (f.stop?.()) return next.value.best;
    next = search.next(attempt(f.assembleAt, next.value.window));
  }
  return next.value;
}

/**
 * As windowToFit, giving the event loop a turn before each assembly, so a newer request can be taken in between:
 * `stop` (a newer assembly of the same inputs' folder, a time budget) ends it with the best window verified so far,
 * `cancelled` with undefined.
 */
export async function windowToFitAsync(f: FitSearch & { cancelled?: () => boolean }): Promise<number | undefined> {
  const search = fitProbes(f);
  let next = search.next();
  while (!next.done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (f.cancelled?.()) return undefined;
    if (f.stop?.()) return next.value.best;
    next = search.next(attempt(f.assembleAt, next.value.window));
  }
  return next.value;
}
