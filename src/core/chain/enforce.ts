import { ContextBudgetExceeded } from '../errors';
import type { Block, Decision, StageResult } from '../types';

export interface EnforceInput {
  blocks: Block[];
  maxInput: number;
  /** Exact count of the full serialized request holding these blocks. */
  countRequest: (blocks: Block[]) => number;
  /** Trim a tool result again to at most `maxTokens`; undefined when it cannot shrink. */
  retrim: (block: Block, maxTokens: number) => Block | undefined;
  /** A document reduced to its title, summary and path. */
  summarize: (block: Block) => Block;
}

export interface Enforced {
  blocks: Block[];
  final: number;
  /** Exact count of the request holding only the protected zone. */
  mandatory: number;
  /** Blocks the ladder removed, in order. */
  removed: Block[];
}

/** The protected zone: mandatory blocks, and the session summary (never cut: it stands for the older events it replaced). */
export function isProtected(block: Block): boolean {
  return block.mandatory || block.kind === 'session_summary';
}

const DOCUMENT_KINDS = new Set(['document', 'decision', 'source_code']);
const MIN_TOOL_TOKENS = 40;
const LADDER4_WHAT: Partial<Record<Block['kind'], string>> = { index: 'block: the index of documents available on demand', tool_result: 'tool result' };

/**
 * The request budget, enforced on the exact count of the serialized request. Degrade in order until it fits:
 * 1 trim the largest tool result, 2 drop the oldest session group, 3 replace a document by its summary,
 * 4 drop the lowest-priority document, 5 refuse. Protected blocks are never touched; a group is never split.
 * Its decisions are the ladder's steps (`degraded`), each with its step number (`ladder`) and, for a block the step
 * removed, `dropped: true`; a refusal is a ContextBudgetExceeded naming the protected blocks.
 */
export function enforce(input: EnforceInput): StageResult<Enforced> {
  const protectedBlocks = input.blocks.filter(isProtected);
  const mandatory = input.countRequest(protectedBlocks);
  if (mandatory > input.maxInput) {
    throw new ContextBudgetExceeded(
      input.maxInput,
      mandatory,
      protectedBlocks.map((b) => ({ id: b.id, source: b.source, kind: b.kind, tokens: b.tokens })),
    );
  }
  let blocks = [...input.blocks];
  const steps: Decision[] = [];
  const removed: Block[] = [];
  const replace = (from: Block, to: Block) => {
    blocks = blocks.map((b) => (b === from ? to : b));
  };
  const remove = (block: Block) => {
    blocks = blocks.filter((b) => b !== block);
    removed.push(block);
  };
  const exhausted = new Set<string>();
  let final = input.countRequest(blocks);
  while (final > input.maxInput) {
    const over = final - input.maxInput;
    const step = ((): Decision | undefined => {
      const tools = blocks.filter((b) => b.kind === 'tool_result' && !exhausted.has(b.id)).sort((a, b) => b.tokens - a.tokens);
      for (const largest of tools) {
        const target = Math.max(MIN_TOOL_TOKENS, Math.min(Math.floor(largest.tokens / 2), largest.tokens - over));
        const smaller = largest.tokens > MIN_TOOL_TOKENS ? input.retrim(largest, target) : undefined;
        if (!smaller) {
          exhausted.add(largest.id);
          continue;
        }
        replace(largest, smaller);
        return { source: largest.source, kind: largest.kind, reason: 'ladder 1: trimmed the largest tool result', ladder: 1, tokens_before: largest.tokens, tokens: smaller.tokens };
      }
      const oldest = blocks.filter((b) => b.kind === 'session_group').sort((a, b) => (a.meta.groupIndex ?? 0) - (b.meta.groupIndex ?? 0))[0];
      if (oldest) {
        remove(oldest);
        return { source: oldest.source, kind: oldest.kind, reason: 'ladder 2: dropped the oldest session events', ladder: 2, dropped: true, tokens: oldest.tokens, events: oldest.meta.events?.length ?? 0 };
      }
      const byPriority = (a: Block, b: Block) => a.priority - b.priority || b.tokens - a.tokens;
      const full = blocks.filter((b) => DOCUMENT_KINDS.has(b.kind) && !b.meta.summarized && !isProtected(b)).sort(byPriority);
      for (const doc of full) {
        const summary = input.summarize(doc);
        if (summary.tokens >= doc.tokens) continue;
        replace(doc, summary);
        return { source: doc.source, kind: doc.kind, reason: 'ladder 3: replaced the document by its summary', ladder: 3, tokens_before: doc.tokens, tokens: summary.tokens };
      }
      const droppable = blocks.filter((b) => (DOCUMENT_KINDS.has(b.kind) || b.kind === 'tool_result' || b.kind === 'index') && !isProtected(b)).sort(byPriority);
      const lowest = droppable[0];
      if (lowest) {
        remove(lowest);
        return { source: lowest.source, kind: lowest.kind, reason: `ladder 4: dropped the lowest-priority ${LADDER4_WHAT[lowest.kind] ?? 'document'}`, ladder: 4, dropped: true, tokens: lowest.tokens };
      }
      return undefined;
    })();
    if (!step) {
      // Only the protected zone is left and it fit above: unreachable unless counting is inconsistent. Refuse anyway.
      throw new ContextBudgetExceeded(input.maxInput, final, blocks.map((b) => ({ id: b.id, source: b.source, kind: b.kind, tokens: b.tokens })));
    }
    const before = final;
    final = input.countRequest(blocks);
    steps.push({ ...step, request_before: before, request_after: final });
  }
  return { value: { blocks, final, mandatory, removed }, decisions: { degraded: steps } };
}
