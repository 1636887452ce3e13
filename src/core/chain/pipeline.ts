import { host } from '../host';
import { maxInput as maxInputOf } from '../policy';
import { shapeRequest, type WireShape } from '../providers/shape';
import { buildManifest, type Manifest } from '../report/manifest';
import { renderTrace } from '../report/trace';
import { openOffloadStore, type OffloadStore } from '../offload/store';
import { offloadLocation } from '../offload/location';
import { displayPath, type Snapshot } from '../sources/snapshot';
import { counterFor, encodingForModel, type Tokenizer } from '../tokens';
import { linesOf } from '../sources/scan';
import { constraintsFrom } from '../session/constraints';
import type { SessionStoreRef } from '../session/report';
import type { SummaryRecord } from '../session/summary-store';
import { mergeDecisions, type Block, type Decision, type Warning } from '../types';
import { collect } from './collect';
import { enforce, isProtected } from './enforce';
import { fill } from './fill';
import { commitNote, indexBlock, indexBudgetOf, isIndexable, leftOutOfIndex, summaryText, withinIndexBudget } from './index-block';
import { GROWTH_ROUNDS, grownZone, growthMessage } from './grow';
import { prune } from './prune';
import { Stopwatch } from './stopwatch';
import { applyOverrides, excludeToolOutputs, includeToolOutputs, refuseOverflowingIncludes } from './overrides';
import { wrapped, type NeutralRequest } from './render';
import { entryCount } from './wrap-memo';
import { cacheKeyOf, RequestCounter } from './request-count';
import { Placement } from './placement';
import { selectSession } from './session';
import { offloadToolResults } from './offload';
import { retrim, trimToolOutputs, type TrimInput } from './trim';
import type { RelevanceIndex } from '../relevance/index';
import { rankBlocks } from '../relevance/stage';

/** Whether a trimmed output left error or warning templates out (only then is another round of growth worth a trim). */
function templatesLeftOut(trimmed: Decision[] | undefined): boolean {
  return (trimmed ?? []).some((d) => {
    const c = d.templates as { errors: number; warnings: number; kept_errors: number; kept_warnings: number } | undefined;
    return c !== undefined && c.kept_errors + c.kept_warnings < c.errors + c.warnings;
  });
}

export interface AssembleOptions {
  model?: string;
  shape?: WireShape;
  /** Overrides the encoding chosen from the model. */
  encoding?: string;
  /** Bring your own synchronous counter (tests). vscode.lm's countTokens is async: it checks the result afterwards, it cannot count for the chain. */
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
  /** The stable prefix's hash on the previous call, so the manifest can say whether the cache prefix changed. */
  previousPrefixHash?: string;
  /** Which session store the snapshot's events came from, for the manifest (default: read from the session source). */
  sessionStore?: SessionStoreRef;
}

export interface Assembly {
  /** The provider-neutral request. */
  neutral: NeutralRequest;
  /** The body in the provider's wire shape, and its exact bytes. */
  request: object;
  serialized: string;
  /** The shape and streaming the request was made for: `request` is `shapeRequest(neutral, wire.shape, wire.stream)`. */
  wire: { shape: WireShape; stream: boolean };
  blocks: Block[];
  manifest: Manifest;
  trace: string;
  /** How long each stage took, in order (for the log; nothing in the request or the manifest depends on it). */
  timings?: { stage: string; ms: number }[];
}

export const DEFAULT_MODEL = 'gpt-4o';

/**
 * The chain (README): collect → relevance → prune → offload → trim → session → fill → render → enforce → report.
 * Each stage returns its value and its decisions; the manifest is derived from the blocks sent plus those decisions.
 */
export function assemble(snapshot: Snapshot, options: AssembleOptions = {}): Assembly {
  const { policy } = snapshot;
  const model = options.model ?? DEFAULT_MODEL;
  const shape = options.shape ?? 'openai';
  const stream = options.stream ?? true;
  const choice = encodingForModel(model, options.encoding);
  const tokenizer = options.tokenizer ?? counterFor(choice.encoding);
  const max = maxInputOf(policy);
  const counter = new RequestCounter(tokenizer, model, policy.envelope.output_reserve, shape, stream, cacheKeyOf(snapshot.root));
  const placement = new Placement(tokenizer, counter);
  const exact = (b: Block): Block => (b.exact ? b : { ...b, tokens: entryCount(wrapped(b), tokenizer), exact: true });

  const watch = new Stopwatch();
  const collected = watch.lap('collect', collect(snapshot));
  const ranked = watch.lap('relevance', rankBlocks(collected.value.blocks, snapshot, options.relevanceIndex, tokenizer));
  const pruned = watch.lap('prune + overrides', applyOverrides(prune(ranked.blocks, ranked.context ?? snapshot.task.component), ranked.blocks, snapshot.overrides, snapshot.toolOutputs.map((o) => o.path)));
  let store = options.offloadStore;
  const offload = offloadToolResults(snapshot.toolResults ?? [], {
    policy,
    tokenizer,
    store: () => (store ??= openOffloadStore(offloadLocation(snapshot.root, policy), { maxAgeDays: policy.offload.retention_days, maxMegabytes: policy.offload.retention_mb }, options.now)),
    display: (abs) => displayPath(snapshot.root, abs),
  });
  watch.lap('offload', offload);
  // Tool output the user excluded is not read; what the user included is sent as its digest, placed first.
  const excludedTools = excludeToolOutputs([...collected.value.toolOutputs, ...offload.value.inline], snapshot.overrides);
  const toolOutputs: TrimInput[] = excludedTools.kept;
  const trimTools = (p: typeof policy) => {
    const t = trimToolOutputs(toolOutputs, p, tokenizer, offload.value.tokens);
    return { ...t, value: includeToolOutputs(t.value, snapshot.overrides) };
  };
  let trimmed = watch.lap('trim', trimTools(policy));
  const session = selectSession(snapshot.session, snapshot.sessionSource ?? 'session', policy, {
    constraints: constraintsFrom(pruned.value.kept),
    knownSources: snapshot.files.map((f) => f.path),
    summaries: options.summaries?.records,
    tokenizer,
    store: options.sessionStore,
  });
  watch.lap('session', session);

  const outputBySource = new Map(toolOutputs.map((o) => [o.path, o]));
  const retrimTo = (block: Block, target: number) =>
    retrim(block, target, policy, tokenizer, outputBySource.get(block.source)?.lines ?? (() => linesOf(block.text)), outputBySource.get(block.source)?.reference);
  const protectedBlocks = [...pruned.value.kept.filter(isProtected), ...(session.value.summary ? [session.value.summary] : [])].map(exact);
  // The index has a budget of its own (index-block.ts): the disclosed documents, most relevant first, take their
  // lines from it; what they leave is for the lines of the candidates the fill leaves out; the rest is the fill's.
  const indexBudget = indexBudgetOf(Math.max(0, max - counter.count(protectedBlocks)));
  const disclosure = withinIndexBudget(pruned.value.disclosed.filter(isIndexable), indexBudget, (b) => placement.listCost(policy, b));
  const retired = pruned.value.retired ?? [];
  const disclosedIndex = indexBlock(policy, disclosure.listed, undefined, undefined, retired);
  const reserved = counter.count(disclosedIndex ? [...protectedBlocks, disclosedIndex] : protectedBlocks);
  const flexible = Math.max(0, max - reserved);
  const documents = pruned.value.kept.filter((b) => !isProtected(b));
  const fillWith = (tools: Block[], zone: number) =>
    fill({
      candidates: [...documents, ...offload.value.blocks, ...tools],
      groups: session.value.groups,
      available: flexible,
      // The trim stage may have grown the zone for evidence floors (trim.evidence_floor); fill keeps what it gave.
      toolResultsCap: Math.max(zone, offload.value.tokens + tools.reduce((n, b) => n + b.tokens, 0)),
      shrink: retrimTo,
      cost: (block, room) => placement.cost(block, room),
      size: (block, limit) => placement.size(block, limit),
      reservedGroups: session.value.reserved,
      listCost: (block) => placement.listCost(policy, block),
      listWrapper: disclosure.listed.length > 0 ? 0 : placement.listWrapper(),
      indexBudget: Math.max(0, indexBudget - disclosure.spent),
    });
  const cap = policy.zones.tool_results.max_tokens;
  let filled = fillWith(trimmed.value, cap);
  // The evidence zone grows into the room the fill left (chain/grow.ts): trimmed again to the zone plus that room,
  // then filled again; kept only if every other block the first fill placed is still placed.
  // A second round grows into what the first left (outputs trimmed below their share, the margin it held back).
  let effectiveCap = cap;
  const free = filled.value.left;
  for (let round = 0; round < GROWTH_ROUNDS && policy.zones.tool_results.grow !== false; round++) {
    // The first round grows from the cap; the next from what the outputs took (a share they left unused is room again).
    const took = offload.value.tokens + trimmed.value.reduce((n, b) => n + b.tokens, 0);
    const used = round === 0 ? Math.max(effectiveCap, took) : took;
    // After the first round, the room is what the request as counted leaves (the fill's figure does not count the envelope's escaping).
    const left = round === 0 ? filled.value.left : Math.min(filled.value.left, max - counter.count([...(disclosedIndex ? [...protectedBlocks, disclosedIndex] : protectedBlocks), ...filled.value.selected.map(exact)]));
    const zone = grownZone(used, left, trimmed.value);
    if (zone === undefined || zone <= effectiveCap || (round > 0 && !templatesLeftOut(trimmed.decisions.trimmed))) break;
    const grownPolicy = { ...policy, zones: { ...policy.zones, tool_results: { ...policy.zones.tool_results, max_tokens: zone } } };
    const again = trimTools(grownPolicy);
    const refilled = fillWith(again.value, zone);
    const others = (f: typeof filled) => new Set(f.value.selected.filter((b) => b.kind !== 'tool_result').map((b) => b.id));
    const before = others(filled);
    const after = others(refilled);
    if (![...before].every((id) => after.has(id))) break;
    filled = refilled;
    effectiveCap = zone;
    trimmed = { value: again.value, decisions: { ...again.decisions, warnings: [...(again.decisions.warnings ?? []).filter((w) => w.source !== 'zones.tool_results'), { source: 'zones.tool_results', message: growthMessage(cap, zone, free) }] } };
  }
  watch.lap('fill', filled);
  refuseOverflowingIncludes(filled.value.overflow, protectedBlocks, max, reserved);
  // Only what read_document can fetch goes in the index; an overflowing tool result stays reachable at its path;
  // commit evidence that does not fit is named in the manifest (commitNote), never as an index entry.
  const overflowDocs = filled.value.overflow.filter(isIndexable);
  const unlisted = new Set(filled.value.unlisted);
  const listedDocs = overflowDocs.filter((b) => !unlisted.has(b));
  const leftOut = overflowDocs.length - listedDocs.length + disclosure.left.length;
  const index = indexBlock(policy, [...disclosure.listed, ...listedDocs], new Set(listedDocs), leftOut > 0 ? { count: leftOut, budget: indexBudget } : undefined, retired);

  const enforced = enforce({
    blocks: [...protectedBlocks, ...(index ? [exact(index)] : []), ...filled.value.selected.map(exact)],
    maxInput: max,
    countRequest: (blocks) => counter.count(blocks),
    retrim: retrimTo,
    summarize: (block) => exact({ ...block, text: summaryText(block), meta: { ...block.meta, summarized: true }, exact: false }),
  });

  watch.lap('enforce', enforced);
  const sent = enforced.value.blocks;
  const neutral = counter.render(sent);
  const request = shapeRequest(neutral, shape, stream);
  // The request enforce counted last is these very blocks: its bytes are already serialized (the same bytes).
  const serialized = counter.serializedOf(sent) ?? JSON.stringify(request);
  const merged = mergeDecisions(collected.decisions, pruned.decisions, { rejected: excludedTools.excluded }, offload.decisions, trimmed.decisions, session.decisions, { warnings: options.summaries?.warnings ?? [] }, filled.decisions, enforced.decisions, { indexed: leftOutOfIndex(pruned.value.indexed ?? pruned.value.disclosed.map(disclosedDecision), disclosure.left, indexBudget) });
  const decisions = commitEvidenceNotSent(merged, ranked.blocks, sent);
  const manifest = buildManifest({
    snapshot,
    blocks: sent,
    decisions,
    budget: { window: policy.envelope.window, output_reserve: policy.envelope.output_reserve, margin: policy.envelope.margin, max_input: max, mandatory: enforced.value.mandatory, final: counter.countSerialized(serialized) },
    session: session.value.report,
    model,
    encoding: tokenizer.encoding,
    approximate: options.tokenizer ? false : choice.approximate,
    shape,
    bytes: counter.bytesOf(sent) ?? Buffer.byteLength(serialized),
    now: options.now ?? clockOf(host()),
    requestRedactions: neutral.redactions,
    toolResultsCap: effectiveCap,
    cache: counter.prefix(neutral, options.previousPrefixHash),
  });
  const trace = renderTrace(manifest);
  watch.lap('render + report', trace);
  return { neutral, request, serialized, wire: { shape, stream }, blocks: sent, manifest, trace, timings: watch.laps };
}

function disclosedDecision(b: Block): Decision {
  return { source: b.source, kind: b.kind, reason: b.trust === 'project-rule' ? 'instruction file disclosed by its own rules: available on demand' : 'no component: disclosed in the index, available on demand', tokens: b.tokens };
}

/**
 * Commit evidence is never an index entry: a "would be in the index" decision for one that was not sent becomes a
 * rejection that names the commit and the file (`not sent: commit abc1234 touching src/a.ts (…); did not fit …`).
 */
function commitEvidenceNotSent<T extends { indexed?: Decision[]; rejected?: Decision[] }>(decisions: T, blocks: Block[], sent: Block[]): T {
  const commits = new Map(blocks.filter((b) => b.meta.commit).map((b) => [b.source, b]));
  if (commits.size === 0 || !decisions.indexed) return decisions;
  const wasSent = new Set(sent.map((b) => b.source));
  const moved = decisions.indexed.filter((d) => commits.has(d.source) && !wasSent.has(d.source));
  if (moved.length === 0) return decisions;
  return {
    ...decisions,
    indexed: decisions.indexed.filter((d) => !moved.includes(d)),
    rejected: [...(decisions.rejected ?? []), ...moved.map((d) => ({ ...d, reason: commitNote(commits.get(d.source)!, d.reason) }))],
  };
}

/** The clock of the host the assembly runs with, taken when it runs (a later call reads the same host). */
function clockOf(h: ReturnType<typeof host>): () => Date {
  return () => h.now();
}
