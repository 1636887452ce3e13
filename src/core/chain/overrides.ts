import { ContextBudgetExceeded } from '../errors';
import { overrideFor, type Overrides } from '../sources/overrides';
import { estimateTokensFromBytes } from '../tokens';
import type { Block, Decision, StageResult, Warning } from '../types';
import type { Pruned } from './prune';

/** What the overrides stage adds to a block: pipeline's manifest gives it the reason `included by you`. */

const OVERRIDABLE = new Set(['document', 'decision', 'source_code']);
export const EXCLUDED_REASON = 'excluded by you';

/**
 * The user's include / exclude overrides, after prune: an included document, decision or source file (kept, indexed
 * or rejected by prune) competes for the budget at the top flexible priority, marked `meta.override = 'include'`; an
 * excluded one leaves the request with the rejected reason `excluded by you`. A protected block (a pin, a rule) is
 * never excluded: the user is told to unpin it. An override that names nothing of this request is a warning. Tool
 * output has its own two steps (excludeToolOutputs before the trim, includeToolOutputs after it).
 */
export function applyOverrides(pruned: StageResult<Pruned>, candidates: Block[], overrides: Overrides | undefined, toolOutputs: string[] = []): StageResult<Pruned> {
  if (!overrides || (overrides.include.length === 0 && overrides.exclude.length === 0)) return pruned;
  const warnings: Warning[] = [];
  const touched = new Set<string>();
  const excludedDecisions: Decision[] = [];
  const decide = (b: Block) => overrideFor(overrides, b.source);

  const isExcluded = (b: Block) => {
    if (decide(b) !== 'exclude') return false;
    if (b.mandatory || !OVERRIDABLE.has(b.kind)) {
      warnings.push({ source: b.source, message: `excluded by you, but it is ${b.kind === 'pinned' ? 'pinned' : `protected (${b.kind})`}: it stays in the request; ${protectedFix(b.kind)}` });
      return false;
    }
    touched.add(b.source);
    excludedDecisions.push({ source: b.source, kind: b.kind, reason: EXCLUDED_REASON, tokens: b.tokens });
    return true;
  };
  const kept = pruned.value.kept.filter((b) => !isExcluded(b));
  const disclosed = pruned.value.disclosed.filter((b) => !isExcluded(b));
  // Prune's rejections are blocks too: an excluded one is reported once, as excluded.
  for (const b of candidates) {
    if (!touched.has(b.source) && OVERRIDABLE.has(b.kind) && decide(b) === 'exclude' && !kept.includes(b) && !disclosed.includes(b)) {
      touched.add(b.source);
      excludedDecisions.push({ source: b.source, kind: b.kind, reason: EXCLUDED_REASON, tokens: b.tokens });
    }
  }

  const flexible = kept.filter((b) => !b.mandatory && b.kind !== 'session_summary');
  const top = Math.max(100, ...flexible.map((b) => b.priority)) + 1;
  const lift = (b: Block): Block => ({
    ...b,
    priority: top,
    meta: { ...b.meta, override: 'include', ...(b.meta.relevance ? { relevance: { ...b.meta.relevance, prioritized: true } } : {}) },
  });
  const included = candidates.filter((b) => OVERRIDABLE.has(b.kind) && decide(b) === 'include');
  const includedSources = new Set(included.map((b) => b.source));
  for (const s of includedSources) touched.add(s);
  const outKept = [...kept.filter((b) => !includedSources.has(b.source)), ...included.map(lift)];
  const outDisclosed = disclosed.filter((b) => !includedSources.has(b.source));

  for (const p of [...overrides.include, ...overrides.exclude]) {
    const names = (source: string) => overrideFor({ include: [p], exclude: [] }, source) !== undefined;
    const named = candidates.some((b) => names(b.source)) || toolOutputs.some(names);
    if (!named) warnings.push({ source: p, message: `${overrides.include.includes(p) ? 'included' : 'excluded'} by you, but it is not a document, decision, source file or tool output of this workspace: no effect` });
  }
  const notTouched = (d: Decision) => !touched.has(d.source);
  return {
    // A retired decision you include is loaded (as included), one you exclude is gone: neither is named as retired.
    value: { kept: outKept, disclosed: outDisclosed, indexed: pruned.value.indexed?.filter(notTouched), ...(pruned.value.retired ? { retired: pruned.value.retired.filter((b) => !touched.has(b.source)) } : {}) },
    decisions: {
      ...pruned.decisions,
      rejected: [...(pruned.decisions.rejected ?? []).filter(notTouched), ...excludedDecisions],
      warnings: [...(pruned.decisions.warnings ?? []), ...warnings],
    },
  };
}

/** How a protected block leaves the request, in the words of its kind: an exclude cannot do it. */
function protectedFix(kind: string): string {
  if (kind === 'pinned') return 'unpin it to leave it out';
  if (kind === 'current_task') return 'the task is always sent';
  return `shorten it, or take ${kind} out of the policy's mandatory list to leave it out`;
}

/**
 * Tool output (a log, a test report of the workspace) the user excluded is neither read nor trimmed: it leaves the
 * request with the reason `excluded by you`, reported once, with its size as an estimate.
 */
export function excludeToolOutputs<T extends { path: string; size: number }>(outputs: T[], overrides: Overrides | undefined): { kept: T[]; excluded: Decision[] } {
  if (!overrides?.exclude.length) return { kept: outputs, excluded: [] };
  const out = outputs.filter((o) => overrideFor(overrides, o.path) === 'exclude');
  return {
    kept: outputs.filter((o) => !out.includes(o)),
    excluded: out.map((o) => ({ source: o.path, kind: 'tool_result', reason: EXCLUDED_REASON, tokens: estimateTokensFromBytes(o.size) })),
  };
}

/**
 * Tool output the user included is sent as its trimmed digest: marked `meta.override = 'include'`, so fill places it
 * before anything flexible (re-trimmed to the room if need be) and the call is refused if even that does not fit.
 */
export function includeToolOutputs(blocks: Block[], overrides: Overrides | undefined): Block[] {
  if (!overrides?.include.length) return blocks;
  return blocks.map((b) => (b.kind === 'tool_result' && overrideFor(overrides, b.source) === 'include' ? { ...b, meta: { ...b.meta, override: 'include' as const } } : b));
}

/** An included block that the budget cannot hold refuses the call, as a pin that overflows does: never dropped silently. */
export class IncludeDoesNotFit extends ContextBudgetExceeded {
  constructor(maxInput: number, reserved: number, protectedBlocks: Block[], included: Block[]) {
    super(maxInput, reserved + included.reduce((n, b) => n + b.tokens, 0), [...protectedBlocks, ...included].map((b) => ({ id: b.id, source: b.source, kind: b.kind, tokens: b.tokens })));
    const free = Math.max(0, maxInput - reserved);
    this.message =
      `ContextBudgetExceeded: included by you but does not fit: ${included.map((b) => `${b.source} (${b.tokens} tokens)`).join(', ')}; ` +
      `${free} tokens are left once the protected blocks (${reserved} tokens) are placed, max_input is ${maxInput}.\n` +
      `  Exclude or unpin something, clear the include, or raise the envelope.\n` +
      this.blocks.map((b) => `  ${b.kind.padEnd(20)} ${b.source.padEnd(40)} ${b.tokens} tokens`).join('\n');
  }
}

/** After fill: refuse when an included block did not fit (see IncludeDoesNotFit). */
export function refuseOverflowingIncludes(overflow: Block[], protectedBlocks: Block[], maxInput: number, reserved: number): void {
  const included = overflow.filter((b) => b.meta.override === 'include');
  if (included.length > 0) throw new IncludeDoesNotFit(maxInput, reserved, protectedBlocks, included);
}
