import type { RequestRedaction } from '../chain/render';
import type { SessionReport } from '../session/report';
import { PLACEHOLDER_RE } from '../redact/apply';
import { redactManifestStrings } from './redact-manifest';
import type { Snapshot } from '../sources/snapshot';
import type { TaskSignals } from '../task/analyze';
import type { Block, Decision, Decisions } from '../types';
import type { CacheReport } from '../chain/request-count';
import { evidenceLeftOut } from '../chain/trim-share';
import { deriveSections } from './derive';
import { statusLabel } from '../sources/adr';

export interface Budget {
  window: number;
  output_reserve: number;
  margin: number;
  max_input: number;
  /** Exact tokens of the request holding only the protected zone. */
  mandatory: number;
  /** Exact tokens of the serialized request. Always ≤ max_input. */
  final: number;
  /** Request framing in no block (JSON keys, roles, the working-context wrapper, separators): final − Σ zones. */
  overhead: number;
  /** max_input − final: zones + overhead + free + output_reserve + margin = window. */
  free: number;
}

/** The decision sections, as every stage's decisions merged and derived from the request sent. */
export interface Manifest extends Decisions {
  version: 1;
  created_at: string;
  task: { source: string; component?: string; components?: { name: string; from: string }[]; signals?: TaskSignals; changed?: string[] };
  model: string;
  encoding: string;
  /** true when the model's own tokenizer differs from the encoding used: the margin absorbs it. */
  encoding_approximate: boolean;
  shape: string;
  policy: string;
  request_bytes: number;
  budget: Budget;
  zones: Record<string, number>;
  /** The stable prefix (tools, system text, rules, pins, session summary) a provider can cache. */
  cache?: CacheReport;
  session: SessionReport;
  /** Every secret kept out of the request: where it was (never what), and the rule that matched. */
  redactions: RedactionEntry[];
}

export interface RedactionEntry {
  source: string;
  /**
   * 1-based line: in the file as read (`read`), in the tool output as sent (`tool-output`), or in the block as
   * wrapped for the request (`request`: a secret in a title, label, path or id that the readers did not see).
   */
  line?: number;
  rule: string;
  stage: 'read' | 'tool-output' | 'request';
}

export function zoneOf(block: Block): string {
  if (block.mandatory) return 'protected';
  switch (block.kind) {
    case 'session_summary':
    case 'session_group':
      return 'session';
    case 'tool_result':
      return 'tool_results';
    case 'index':
      return 'index';
    default:
      return 'documents';
  }
}

function selectionReason(block: Block, component?: string): string {
  if (block.meta.override === 'include') return 'included by you';
  if (block.mandatory) return `mandatory (${block.kind})${block.kind === 'agents_md' && block.meta.summary ? `, ${block.meta.summary}` : ''}`;
  const rel = block.meta.relevance;
  const part = `${block.meta.summarized ? ', summary only' : ''}${block.meta.excerpt ? `, ${block.meta.excerpt}` : ''}`;
  if (rel && block.kind === 'decision') return `applicable decision (${statusLabel(block.meta.status)}); relevant: ${rel.reason}${part}`;
  if (rel) return `relevant: ${rel.reason}; priority ${block.priority}${rel.prioritized ? ' (set by the policy)' : ''}${part}`;
  switch (block.kind) {
    case 'decision':
      return `applicable decision (${statusLabel(block.meta.status)})${block.meta.summarized ? ', summary only' : ''}`;
    case 'tool_result':
      return block.meta.trim ? `tool output, priority ${block.priority}, trimmed` : `tool output, priority ${block.priority}`;
    case 'session_summary':
      return 'structured summary of older session events';
    case 'session_group':
      return 'recent session events, verbatim';
    case 'index':
      return 'index of documents available on demand';
    default:
      return `${component ? `component ${component} matches the task` : 'candidate'}, priority ${block.priority}${block.meta.summarized ? ', summary only' : ''}`;
  }
}

export interface ManifestInput {
  snapshot: Snapshot;
  blocks: Block[];
  decisions: Decisions;
  budget: Omit<Budget, 'overhead' | 'free'>;
  /** The session stage's report; the manifest corrects it for the groups actually sent. */
  session: SessionReport;
  model: string;
  encoding: string;
  approximate: boolean;
  shape: string;
  bytes: number;
  now: () => Date;
  /** What render's redaction pass caught in the request itself. */
  requestRedactions?: RequestRedaction[];
  /** The tool-results zone cap, for the warning about evidence left out while the request had room. */
  toolResultsCap?: number;
  cache?: CacheReport;
}

/** The redactions of one call: from the readers' warnings, the placeholders in the tool output sent, and render's pass. */
function redactionsOf(input: ManifestInput): RedactionEntry[] {
  const out: RedactionEntry[] = [];
  for (const w of input.decisions.warnings) if (w.rule) out.push({ source: w.source, ...(w.line !== undefined ? { line: w.line } : {}), rule: w.rule, stage: 'read' });
  for (const b of input.blocks.filter((x) => x.kind === 'tool_result')) {
    b.text.split('\n').forEach((text, i) => {
      for (const m of text.matchAll(PLACEHOLDER_RE)) out.push({ source: b.source, line: i + 1, rule: m[0].slice(10, -1).replace(/…$/, ''), stage: 'tool-output' });
    });
  }
  for (const r of input.requestRedactions ?? []) out.push({ source: r.source, line: r.line, rule: r.rule, stage: 'request' });
  return out;
}

/**
 * The manifest is a pure function of the blocks sent and the stages' decisions (derive.ts): every entry is true of
 * the request. It is written to disk and shown: every string in it passes the redaction rule set (a secret in a
 * file name, a title or an id).
 */
export function buildManifest(input: ManifestInput): Manifest {
  return redactManifestStrings(manifestOf(input));
}

function manifestOf(input: ManifestInput): Manifest {
  const { snapshot, blocks, decisions } = input;
  const zones: Record<string, number> = { protected: 0, session: 0, index: 0, documents: 0, tool_results: 0 };
  for (const b of blocks) zones[zoneOf(b)] += b.tokens;
  const zoneTotal = Object.values(zones).reduce((n, z) => n + z, 0);
  const derived = deriveSections(blocks, decisions);
  const sentEvents = blocks.filter((b) => b.kind === 'session_group').reduce((n, b) => n + (b.meta.events?.length ?? 0), 0);
  const free = input.budget.max_input - input.budget.final;
  const warnings = [...decisions.warnings, ...evidenceLeftOut(derived.trimmed, free, input.toolResultsCap ?? 0)];
  const selected: Decision[] = blocks.map((b) => ({
    source: b.source,
    kind: b.kind,
    reason: selectionReason(b, b.meta.components?.join(', ')),
    tokens: b.tokens,
    priority: b.priority,
    zone: zoneOf(b),
    ...(b.meta.id ? { id: b.meta.id } : {}),
    ...(b.meta.relevance ? { relevance: b.meta.relevance.score } : {}),
  }));
  return {
    version: 1,
    created_at: input.now().toISOString(),
    task: {
      source: snapshot.task.source,
      component: snapshot.task.component,
      ...(snapshot.task.components?.length ? { components: snapshot.task.components } : {}),
      ...(snapshot.task.signals ? { signals: snapshot.task.signals } : {}),
      ...(snapshot.changes ? { changed: [...new Set([...snapshot.changes.workingTree, ...snapshot.changes.commits.map((c) => c.path)])] } : {}),
    },
    model: input.model,
    encoding: input.encoding,
    encoding_approximate: input.approximate,
    shape: input.shape,
    policy: snapshot.policy.origin,
    request_bytes: input.bytes,
    budget: { ...input.budget, overhead: input.budget.final - zoneTotal, free },
    zones,
    ...(input.cache ? { cache: input.cache } : {}),
    selected,
    rejected: derived.rejected,
    trimmed: derived.trimmed,
    offloaded: derived.offloaded,
    indexed: derived.indexed,
    compacted: decisions.compacted,
    session: { ...input.session, kept_raw: sentEvents, omitted: input.session.omitted + input.session.kept_raw - sentEvents },
    degraded: decisions.degraded,
    warnings,
    redactions: redactionsOf(input),
  };
}
