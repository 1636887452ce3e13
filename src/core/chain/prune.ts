import type { Block, Decision, StageResult, Warning } from '../types';

export interface Pruned {
  /** Blocks still competing for the budget. */
  kept: Block[];
  /** Documents with no component: disclosed in the index, not loaded. */
  disclosed: Block[];
}

const RETIRED = new Set(['superseded', 'deprecated', 'rejected']);
const PRUNABLE = new Set(['document', 'decision', 'source_code']);

/**
 * Drop whole blocks that no longer apply: retired decisions (superseded, deprecated, rejected) and documents of
 * another component than the task's. A document without a component is disclosed, not rejected.
 * Supersession arrives resolved in both directions (sources/supersession.ts, at snapshot time): `meta.status` is the
 * effective status and `meta.supersededBy` the superseders' ids; missing targets and cycles were reported there as
 * warnings. Here the only inference left is a block that names a superseder without saying `superseded`.
 */
export function prune(blocks: Block[], taskComponent: string | undefined): StageResult<Pruned> {
  const kept: Block[] = [];
  const disclosed: Block[] = [];
  const rejected: Decision[] = [];
  const warnings: Warning[] = [];
  const component = taskComponent?.toLowerCase();

  for (const block of blocks) {
    if (!PRUNABLE.has(block.kind) || block.mandatory) {
      kept.push(block);
      continue;
    }
    if (block.kind === 'decision') {
      const status = block.meta.status ?? 'accepted';
      const successor = block.meta.supersededBy;
      if (status === 'superseded' || (successor && !RETIRED.has(status))) {
        rejected.push(decision(block, successor ? `superseded by ${successor}` : 'superseded (no successor named)'));
        continue;
      }
      if (RETIRED.has(status)) {
        rejected.push(decision(block, `${status} decision`));
        continue;
      }
    }
    const components = block.meta.components?.map((c) => c.toLowerCase());
    if (!components || components.length === 0) {
      disclosed.push(block);
      continue;
    }
    if (component && !components.includes(component)) {
      rejected.push(decision(block, 'unrelated component', { component: block.meta.components?.join(', '), task_component: taskComponent }));
      continue;
    }
    kept.push(block);
  }
  return { value: { kept, disclosed }, decisions: { rejected, warnings } };
}

function decision(block: Block, reason: string, extra: Record<string, unknown> = {}): Decision {
  return { source: block.source, kind: block.kind, reason, tokens: block.tokens, ...extra };
}
