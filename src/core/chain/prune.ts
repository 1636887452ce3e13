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
 */
export function prune(blocks: Block[], taskComponent: string | undefined): StageResult<Pruned> {
  const kept: Block[] = [];
  const disclosed: Block[] = [];
  const rejected: Decision[] = [];
  const warnings: Warning[] = [];
  const decisions = blocks.filter((b) => b.kind === 'decision');
  const byId = new Map(decisions.map((d) => [normalizeId(d.meta.id ?? d.source), d]));
  const component = taskComponent?.toLowerCase();

  for (const block of blocks) {
    if (!PRUNABLE.has(block.kind) || block.mandatory) {
      kept.push(block);
      continue;
    }
    if (block.kind === 'decision') {
      const status = block.meta.status ?? 'accepted';
      const successor = block.meta.supersededBy ?? supersederOf(block, decisions);
      if (status === 'superseded' || successor) {
        const target = successor ? byId.get(normalizeId(successor)) : undefined;
        if (successor && !target) warnings.push({ source: block.source, message: `superseded by ${successor}, which is not in the workspace` });
        rejected.push(decision(block, successor ? `superseded by ${target?.meta.id ?? successor}` : 'superseded'));
        continue;
      }
      if (RETIRED.has(status)) {
        rejected.push(decision(block, status));
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

/** The id of an accepted decision that declares it supersedes this one. */
function supersederOf(block: Block, decisions: Block[]): string | undefined {
  const id = normalizeId(block.meta.id ?? block.source);
  const by = decisions.find((d) => d !== block && (d.meta.supersedes ?? []).some((s) => normalizeId(s) === id));
  return by?.meta.id;
}

/** ADR-012, adr-12, 0012 and ADR 12 all name the same decision. */
export function normalizeId(id: string): string {
  const m = /(\d+)/.exec(id.replace(/^.*\//, ''));
  return m ? `adr-${Number(m[1])}` : id.toLowerCase();
}
