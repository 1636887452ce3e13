import { maxInput as maxInputOf } from '../policy';
import { serializeRequest, shapeRequest, type WireShape } from '../providers/shape';
import { buildManifest, type Manifest } from '../report/manifest';
import { renderTrace } from '../report/trace';
import { openOffloadStore, type OffloadStore } from '../offload/store';
import { offloadLocation } from '../offload/location';
import { displayPath, type Snapshot } from '../sources/snapshot';
import { counterFor, encodingForModel, type Tokenizer } from '../tokens';
import { linesOf } from '../sources/scan';
import { constraintsFrom } from '../session/constraints';
import type { SummaryRecord } from '../session/summary-store';
import { mergeDecisions, type Block, type Decision, type Decisions, type Warning } from '../types';
import { collect, makeBlock } from './collect';
import { enforce, isProtected } from './enforce';
import { fill } from './fill';
import { prune } from './prune';
import { applyOverrides, refuseOverflowingIncludes } from './overrides';
import { render, renderIndex, wrap, type IndexEntry, type NeutralRequest } from './render';
import { selectSession } from './session';
import { offloadToolResults } from './offload';
import { retrim, trimToolOutputs, type TrimInput } from './trim';
import type { RelevanceIndex } from '../relevance/index';
import { rankBlocks } from '../relevance/stage';
import { evidenceLeftOut } from './trim-share';

export interface AssembleOptions {
  model?: string;
  shape?: WireShape;
  /** Overrides the encoding chosen from the model. */
  encoding?: string;
  /** Bring your own counter (tests, vscode.lm countTokens). */
  tokenizer?: Tokenizer;
  /** The request is counted as it will be sent: streaming bodies carry `"stream":true`. */
  stream?: boolean;
  /** Clock for the manifest, injectable for tests. */
  now?: () => Date;
  /** The summary store beside the session: its active summary is reused (after validation) when it covers the folded events. */
  summaries?: { records: SummaryRecord[]; warnings?: Warning[] };
  /** Where offloaded tool results go (extension storage); default: the policy's offload.dir in the workspace. */
  offloadStore?: OffloadStore;
  /** The workspace's full-text index, kept between calls and updated file by file; default: built for this call. */
  relevanceIndex?: RelevanceIndex;
}

export interface Assembly {
  /** The provider-neutral request. */
  neutral: NeutralRequest;
  /** The body in the provider's wire shape, and its exact bytes. */
  request: object;
  serialized: string;
  blocks: Block[];
  manifest: Manifest;
  trace: string;
}

export const DEFAULT_MODEL = 'gpt-4o';

/** Run the whole chain on a snapshot: collect → prune → offload → trim → session → fill → order/render → enforce → report. */
export function assemble(snapshot: Snapshot, options: AssembleOptions = {}): Assembly {
  const { policy } = snapshot;
  const model = options.model ?? DEFAULT_MODEL;
  const shape = options.shape ?? 'openai';
  const stream = options.stream ?? true;
  const choice = encodingForModel(model, options.encoding);
  const tokenizer = options.tokenizer ?? counterFor(choice.encoding);
  const max = maxInputOf(policy);
  const exact = (b: Block): Block => (b.exact ? b : { ...b, tokens: tokenizer.count(wrap(b)), exact: true });
  const countRequest = (blocks: Block[]) => tokenizer.count(serializeRequest(render(blocks, model, policy.envelope.output_reserve), shape, stream));

  const collected = collect(snapshot);
  const ranked = rankBlocks(collected.value.blocks, snapshot, options.relevanceIndex);
  const pruned = applyOverrides(prune(ranked.blocks, ranked.context ?? snapshot.task.component), ranked.blocks, snapshot.overrides);
  let store = options.offloadStore;
  const offload = offloadToolResults(snapshot.toolResults ?? [], {
    policy,
    tokenizer,
    store: () => (store ??= openOffloadStore(offloadLocation(snapshot.root, policy), { maxAgeDays: policy.offload.retention_days, maxMegabytes: policy.offload.retention_mb }, options.now)),
    display: (abs) => displayPath(snapshot.root, abs),
  });
  const toolOutputs: TrimInput[] = [...collected.value.toolOutputs, ...offload.value.inline];
  const trimmed = trimToolOutputs(toolOutputs, policy, tokenizer, offload.value.tokens);
  const session = selectSession(snapshot.session, snapshot.sessionSource ?? 'session', policy, {
    constraints: constraintsFrom(pruned.value.kept),
    knownSources: snapshot.files.map((f) => f.path),
    summaries: options.summaries?.records,
    tokenizer,
  });

  const protectedBlocks = [...pruned.value.kept.filter(isProtected), ...(session.value.summary ? [session.value.summary] : [])].map(exact);
  const flexible = [...pruned.value.kept.filter((b) => !isProtected(b)), ...offload.value.blocks, ...trimmed.value];
  const disclosedIndex = indexBlock(policy, pruned.value.disclosed);
  const reserved = countRequest(disclosedIndex ? [...protectedBlocks, disclosedIndex] : protectedBlocks);
  const filled = fill({
    candidates: flexible,
    groups: session.value.groups,
    available: Math.max(0, max - reserved),
    // The trim stage may have grown the zone for evidence floors (trim.evidence_floor); fill keeps what it gave.
    toolResultsCap: Math.max(policy.zones.tool_results.max_tokens, offload.value.tokens + trimmed.value.reduce((n, b) => n + b.tokens, 0)),
  });
  refuseOverflowingIncludes(filled.value.overflow, protectedBlocks, max, reserved);
  // Only what read_document can fetch goes in the index; an overflowing tool result stays reachable at its path.
  const overflowDocs = filled.value.overflow.filter((b) => b.kind !== 'tool_result');
  const index = indexBlock(policy, [...pruned.value.disclosed, ...overflowDocs], new Set(overflowDocs));
  const candidates = [...protectedBlocks, ...(index ? [exact(index)] : []), ...filled.value.selected.map(exact)];

  const outputBySource = new Map(toolOutputs.map((o) => [o.path, o]));
  const enforced = enforce({
    blocks: candidates,
    maxInput: max,
    countRequest,
    retrim: (block, target) => retrim(block, target, policy, tokenizer, outputBySource.get(block.source)?.lines ?? (() => linesOf(block.text)), outputBySource.get(block.source)?.reference),
    summarize: (block) => exact({ ...block, text: summaryText(block), meta: { ...block.meta, summarized: true }, exact: false }),
  });

  const neutral = render(enforced.blocks, model, policy.envelope.output_reserve);
  const request = shapeRequest(neutral, shape, stream);
  const serialized = JSON.stringify(request);
  const final = tokenizer.count(serialized);
  const droppedEvents = [...filled.value.droppedGroups, ...enforced.removed.filter((b) => b.kind === 'session_group')].reduce((n, b) => n + (b.meta.events?.length ?? 0), 0);
  const decisions = mergeDecisions(collected.decisions, pruned.decisions, offload.decisions, trimmed.decisions, session.decisions, { warnings: options.summaries?.warnings ?? [] }, filled.decisions, {
    degraded: enforced.steps,
    indexed: pruned.value.indexed ?? pruned.value.disclosed.map((b): Decision => ({ source: b.source, kind: b.kind, reason: b.trust === 'project-rule' ? 'instruction file disclosed by its own rules: available on demand' : 'no component: disclosed in the index, available on demand', tokens: b.tokens })),
  });
  // The ladder may have trimmed a tool result again: the trimmed entries carry the figures of what was sent.
  const sentTrim = new Map(enforced.blocks.filter((b) => b.kind === 'tool_result' && b.meta.trim).map((b) => [b.source, b.meta.trim!]));
  // ...and the reason of what was sent: a retrimmed result's reason is its last trimmer's account, not the first one's.
  const retrimNote = new Map(enforced.blocks.filter((b) => b.meta.retrimNote).map((b) => [b.source, b.meta.retrimNote!]));
  decisions.trimmed = decisions.trimmed.map((t) => (sentTrim.has(t.source) ? { ...t, ...sentTrim.get(t.source), tokens: enforced.blocks.find((b) => b.source === t.source)?.tokens, ...(retrimNote.has(t.source) ? { reason: retrimNote.get(t.source)! } : {}) } : t));
  decisions.warnings.push(...evidenceLeftOut(decisions.trimmed, max - final, policy.zones.tool_results.max_tokens));
  for (const g of filled.value.droppedGroups) {
    decisions.rejected.push({ source: g.source, kind: 'session_group', reason: 'session events omitted: no room left once documents and tool output were placed', tokens: g.tokens, events: g.meta.events?.length ?? 0 });
  }
  notSent(decisions, enforced.blocks);
  const manifest = buildManifest({
    snapshot,
    blocks: enforced.blocks,
    decisions,
    budget: { window: policy.envelope.window, output_reserve: policy.envelope.output_reserve, margin: policy.envelope.margin, max_input: max, mandatory: enforced.mandatory, final },
    session: { ...session.value.report, kept_raw: session.value.report.kept_raw - droppedEvents, omitted: session.value.report.omitted + droppedEvents },
    model,
    encoding: tokenizer.encoding,
    approximate: options.tokenizer ? false : choice.approximate,
    shape,
    bytes: Buffer.byteLength(serialized),
    now: options.now ?? (() => new Date()),
    requestRedactions: neutral.redactions,
  });
  return { neutral, request, serialized, blocks: enforced.blocks, manifest, trace: renderTrace(manifest) };
}

function indexBlock(policy: Snapshot['policy'], docs: Block[], overflow?: Set<Block>): Block | undefined {
  if (docs.length === 0) return undefined;
  const entries: IndexEntry[] = docs
    .sort((a, b) => a.source.localeCompare(b.source))
    .map((d) => ({
      path: d.source,
      title: d.meta.title ?? d.source,
      summary: d.meta.summary,
      tags: d.meta.tags,
      estimatedTokens: d.tokens,
      ...(d.kind === 'decision' ? { status: ['proposed', 'draft'].includes(d.meta.status ?? '') ? `${d.meta.status} (not in force)` : (d.meta.status ?? 'accepted') } : {}),
      ...(d.meta.relevance ? { relevance: d.meta.relevance.score, notLoaded: overflow?.has(d) ? 'did not fit the budget' : ['proposed', 'draft'].includes(d.meta.status ?? '') ? 'not in force' : 'below the relevance threshold' } : {}),
    }));
  const block = makeBlock(policy, 'index', 'builtin:index', 'harness', renderIndex(entries));
  block.priority = -1;
  return block;
}

function summaryText(block: Block): string {
  return [block.meta.title ?? block.source, block.meta.summary ?? '', `(summary only: read_document("${block.source}") returns the full text)`].filter(Boolean).join('\n');
}

/**
 * A claim about the request must hold for the blocks sent: an "indexed" entry needs the index block, a "trimmed" or
 * "offloaded" entry needs its block. What fill or the ladder left out is moved to `rejected`, saying so.
 */
function notSent(decisions: Decisions, sent: Block[]): void {
  const sources = new Set(sent.map((b) => b.source));
  if (!sent.some((b) => b.kind === 'index') && decisions.indexed.length > 0) {
    decisions.rejected.push(...decisions.indexed.map((d) => ({ ...d, reason: `not in this request: the index was dropped to fit max_input (it would have said: ${d.reason})` })));
    decisions.indexed = [];
  }
  for (const section of ['trimmed', 'offloaded'] as const) {
    const [kept, dropped] = [decisions[section].filter((d) => sources.has(d.source)), decisions[section].filter((d) => !sources.has(d.source))];
    decisions[section] = kept;
    decisions.rejected.push(...dropped.map((d) => ({ ...d, reason: `not in this request: no room left for it once the protected blocks and the rest were placed (${section} as: ${d.reason})` })));
  }
}
