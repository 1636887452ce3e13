import { makeBlock } from '../chain/collect';
import { wrap } from '../chain/render';
import { InputError } from '../errors';
import type { Policy } from '../policy';
import { estimateTokens, type Tokenizer } from '../tokens';
import type { Constraint } from './constraints';
import type { SessionEvent } from './event';
import { foldGroups, labelOf, type Fold } from './fold';
import { groupEvents, renderGroup, splitGroups, type EventGroup } from './group';
import { renderSummary, type SessionSummary } from './schema';
import { summaryHeader } from './select';
import { activeSummary, compactRecord, editRecord, liveSummaries, rangeLabel, rangeOf, type StoredSummary, type SummaryRecord } from './summary-store';
import { validateSummary, type Validation } from './validate';

/**
 * Preview, compact and edit: what the panel and `ctxctl session` call. Pure over the stored events and summary
 * records; the caller appends the returned record to the store (append-only), or shows the preview.
 */
export interface CompactionInput {
  events: SessionEvent[];
  /** The session file's display path. */
  source: string;
  policy: Policy;
  records: SummaryRecord[];
  constraints: Constraint[];
  knownSources: string[];
  tokenizer?: Tokenizer;
}

export interface CompactionPreview {
  source: string;
  stored: number;
  /** The events folded into the summary, in group order. */
  folded: { range: string; ids: string[]; groups: number };
  kept_raw: { range: string; events: number; groups: number };
  /** Tool results without their call: never replayed. */
  omitted: string[];
  tokens_before: number;
  tokens_after: number;
  producer: string;
  label: string;
  summary_id?: string;
  notes: string[];
  summary: SessionSummary;
  /** The summary block's text as it would be sent. */
  text: string;
  validation: Validation;
  history: { id: string; action: string; created_at: string; producer?: string; range?: string; target?: string; live: boolean; active: boolean }[];
}

interface Plan {
  older: EventGroup[];
  recent: EventGroup[];
  orphans: SessionEvent[];
}

function plan(input: CompactionInput): Plan {
  const { groups, orphans } = groupEvents(input.events, input.source);
  return { ...splitGroups(groups, input.policy, input.tokenizer), orphans };
}

function foldContext(input: CompactionInput) {
  return { constraints: input.constraints, knownSources: input.knownSources, eventIds: input.events.map((e) => e.id), sessionSource: input.source };
}

/** What the next call would fold, with the stored summary (or the fallback), its figures and its verdict. */
export function previewCompaction(input: CompactionInput): CompactionPreview | undefined {
  const p = plan(input);
  if (p.older.length === 0) return undefined;
  return describe(input, p, foldGroups(p.older, activeSummary(input.records), foldContext(input)));
}

function describe(input: CompactionInput, p: Plan, fold: Fold): CompactionPreview {
  const count = (text: string) => (input.tokenizer ? input.tokenizer.count(text) : estimateTokens(text));
  const range = rangeLabel(fold.covers);
  const text = renderSummary(fold.summary, summaryHeader(range, fold.covers.events, fold.label));
  const block = makeBlock(input.policy, 'session_summary', `${input.source}#summary`, 'session', text);
  const recentEvents = p.recent.flatMap((g) => g.events);
  const live = new Set(liveSummaries(input.records).map((s) => s.id));
  const active = activeSummary(input.records)?.id;
  return {
    source: input.source,
    stored: input.events.length,
    folded: { range, ids: p.older.flatMap((g) => g.events.map((e) => e.id)), groups: p.older.length },
    kept_raw: { range: recentEvents.length ? rangeLabel(rangeOf(recentEvents)) : '', events: recentEvents.length, groups: p.recent.length },
    omitted: p.orphans.map((e) => e.id),
    tokens_before: p.older.reduce((n, g) => n + count(renderGroup(g)), 0),
    tokens_after: count(wrap(block)),
    producer: fold.producer,
    label: fold.label,
    ...(fold.storedId ? { summary_id: fold.storedId } : {}),
    notes: fold.notes,
    summary: fold.summary,
    text,
    validation: fold.validation,
    history: input.records.map((r) => ({
      id: r.id,
      action: r.action,
      created_at: r.created_at,
      ...(r.action === 'undo' ? { target: r.target } : { producer: r.producer, range: rangeLabel(r.covers) }),
      live: live.has(r.id),
      active: r.id === active,
    })),
  };
}

/**
 * A fresh summary of what the next call folds: the model's (`summary` + `producer`, e.g. `model:gpt-4o`) or, with
 * no model, the extractive fallback. Returns the record to store, or throws with the validation's reasons.
 */
export function compactSession(input: CompactionInput, now: Date, fromModel?: { summary: unknown; producer: string }): { record: StoredSummary; preview: CompactionPreview } {
  const p = plan(input);
  if (p.older.length === 0) throw new InputError(`nothing to compact: the ${p.recent.length} group(s) stored are all replayed raw`, input.source);
  let fold = foldGroups(p.older, undefined, foldContext(input));
  if (fromModel) {
    const validation = validateSummary(fromModel.summary, { ...foldContext(input), events: p.older.flatMap((g) => g.events) });
    const summary = validation.ok ? validation.summary : fold.summary;
    fold = { ...fold, summary, producer: fromModel.producer, label: labelOf(fromModel.producer), validation };
  }
  if (!fold.validation.ok) throw new InputError(`summary rejected, not stored: ${fold.validation.reasons.join('; ')}`, input.source);
  const record = compactRecord(input.records, fold.summary, fold.producer, fold.covers, now);
  const records = [...input.records, record];
  return { record, preview: describe({ ...input, records }, p, { ...fold, storedId: record.id, label: labelOf(fold.producer, record.id) }) };
}

/** The user's edit of the active summary, validated against the events it covers before it is stored. */
export function editSummary(input: CompactionInput, value: unknown, now: Date, store: string): StoredSummary {
  const active = activeSummary(input.records);
  if (!active) throw new InputError('nothing to edit: no active summary (run `ctxctl session compact` first)', store);
  const p = plan(input);
  const end = p.older.findIndex((g) => g.events.at(-1)?.id === active.covers.to);
  const covered = p.older.slice(0, end + 1).flatMap((g) => g.events);
  if (end < 0 || rangeOf(covered).hash !== active.covers.hash) {
    throw new InputError(`the active summary ${active.id} (${rangeLabel(active.covers)}) no longer matches the folded events: run \`ctxctl session compact\` again`, store);
  }
  const validation = validateSummary(value, { ...foldContext(input), events: covered });
  if (!validation.ok) throw new InputError(`edited summary rejected, not stored: ${validation.reasons.join('; ')}`, store);
  return editRecord(input.records, validation.summary, now, store);
}
