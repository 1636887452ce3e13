import type { Block, Decision, Decisions } from '../types';

/** The sections of the manifest that must agree with the blocks sent. */
export interface Derived {
  rejected: Decision[];
  trimmed: Decision[];
  offloaded: Decision[];
  indexed: Decision[];
}

/**
 * Derive the sections from the blocks sent plus the stages' decisions. A stage's claim survives only if the request
 * bears it out: "indexed" if the sent index lists the path, "trimmed"/"offloaded" if the block was sent (with the
 * figures of the block sent). Whatever a stage decided but was not sent goes to `rejected`, with the reason of the
 * limit that actually bound: the ladder step that removed it, or the stage's own reason (zone cap, budget).
 */
export function deriveSections(sent: Block[], decisions: Decisions): Derived {
  const bySource = new Map(sent.map((b) => [b.source, b]));
  const listed = new Set(sent.find((b) => b.kind === 'index')?.meta.listed ?? []);
  const dropped = new Map(decisions.degraded.filter((d) => d.dropped).map((d) => [d.source, d]));
  const indexDrop = dropped.get('builtin:index');
  const rejected = [...decisions.rejected];
  const rejectedSources = new Set(rejected.map((r) => r.source));
  const reject = (d: Decision, reason: string) => {
    if (rejectedSources.has(d.source)) return;
    rejectedSources.add(d.source);
    rejected.push({ ...d, reason });
  };
  const byLadder = (step: Decision) => `not in this request: ${step.reason} to fit max_input`;

  const indexed: Decision[] = [];
  for (const d of decisions.indexed) {
    if (listed.has(d.source) && !bySource.has(d.source)) indexed.push(d.reason.includes('in the index') ? d : { ...d, reason: `${d.reason}: in the index, available on demand` });
    else if (!bySource.has(d.source)) reject(d, indexDrop ? `not in this request: the index that listed it was dropped (ladder ${indexDrop.ladder}) to fit max_input (it would have said: ${d.reason})` : `not in this request: ${d.reason}`);
  }
  const sentSection = (section: 'trimmed' | 'offloaded') =>
    decisions[section].flatMap((d): Decision[] => {
      const block = bySource.get(d.source);
      if (!block) {
        const step = dropped.get(d.source);
        reject(d, step ? `${byLadder(step)} (${section} as: ${d.reason})` : `not in this request (${section} as: ${d.reason})`);
        return [];
      }
      if (section === 'offloaded') return [d];
      if (!block.meta.trim) return [{ ...d, tokens: block.tokens }];
      const { templates, share, ...rest } = d;
      const fresh = block.meta.retrimNote;
      return [{ ...rest, ...block.meta.trim, tokens: block.tokens, ...(fresh ? { reason: fresh, retrimmed: true } : { templates, share }) }];
    });
  const trimmed = sentSection('trimmed');
  const offloaded = sentSection('offloaded');
  // A block a fill or the trim stage kept whole, removed by the ladder: not sent either.
  for (const step of dropped.values()) {
    if (step.source === 'builtin:index' || bySource.has(step.source)) continue;
    reject({ source: step.source, kind: step.kind, tokens: step.tokens, ladder: step.ladder, ...(step.events !== undefined ? { events: step.events } : {}), reason: '' }, byLadder(step));
  }
  if (indexDrop) reject({ source: indexDrop.source, kind: 'index', tokens: indexDrop.tokens, ladder: indexDrop.ladder, reason: '' }, byLadder(indexDrop));
  return { rejected, trimmed, offloaded, indexed };
}
