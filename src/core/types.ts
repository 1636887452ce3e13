import type { SessionEvent } from './session/event';
/**
 * The vocabulary of the chain, the words the code uses throughout. Plain data only: every stage takes and returns these.
 */

/** What a block is, which decides its zone, its place in the request and how the ladder may degrade it. */
export type BlockKind =
  | 'system_instructions'
  | 'tool_definitions'
  | 'current_task'
  | 'agents_md'
  | 'pinned'
  | 'session_summary'
  | 'index'
  | 'session_group'
  | 'decision'
  | 'document'
  | 'source_code'
  | 'tool_result';

/** Where the text came from, written into the provenance tag. */
export type Trust = 'harness' | 'user' | 'project-rule' | 'project-document' | 'project-source' | 'tool-output' | 'session';

export type { SessionEvent, SessionEventType } from './session/event';

/** Metadata read from front matter or extracted from the text. */
export interface BlockMeta {
  title?: string;
  summary?: string;
  components?: string[];
  status?: string;
  id?: string;
  supersededBy?: string;
  supersedes?: string[];
  tags?: string[];
  heading?: string;
  /** For session groups: the events, in order. */
  events?: SessionEvent[];
  /** For session groups: position among all stored groups (0 = oldest). */
  groupIndex?: number;
  /** For tool results: the figures of the trim, when one happened. */
  trim?: TrimInfo;
  /** For offloaded tool results. */
  offload?: { path: string; tokens: number };
  /** For a document reduced to its summary by the ladder. */
  summarized?: boolean;
  /** The format a trimmer recognised (log, test report, command, json). */
  format?: string;
  /** Relevance to the task (relevance/rank.ts): score, rank among the candidates, and the reason in words. */
  relevance?: { score: number; rank: number; of: number; reason: string; prioritized?: boolean };
  /** Only part of the text is sent (a decision's decision section, a large file's matching lines). */
  excerpt?: string;
  /** When enforce trimmed a tool result again: the trimmer's account of what the new text holds. */
  retrimNote?: string;
  /** For the index block: the paths its text lists, in order. */
  listed?: string[];
  /** Index: how many candidates it left out for its own budget. */
  leftOut?: number;
  /** A source file read because the task points at it (task/pointers.ts): what of the task it holds. */
  pointer?: string;
  /** The user's override for this source (`.context/` overrides, `--include` / `--exclude`). */
  override?: 'include' | 'exclude';
  /** Commit evidence (relevance/evidence.ts): a commit's hunks of a file, not a workspace document (never an index entry). */
  commit?: { id: string; path: string; subject: string };
}

export interface Block {
  id: string;
  kind: BlockKind;
  /** Path relative to the workspace, or a `builtin:` / `session:` / `pin:` pseudo-source. */
  source: string;
  trust: Trust;
  priority: number;
  mandatory: boolean;
  text: string;
  /** Token figure for `text`: an estimate until the block is selected, then exact. */
  tokens: number;
  exact: boolean;
  meta: BlockMeta;
}

export interface TrimInfo {
  trimmed: true;
  original_lines: number;
  retained_lines: number;
  original_tokens: number;
  /** false when the original figure is an estimate (the full text was never tokenized). */
  original_tokens_exact: boolean;
  tokens: number;
  /** Where the full text is: a workspace path or an offload path. Never a bare boolean. */
  reference: string;
  format: string;
}

/** One entry of the manifest: every decision has a source, a reason, and token figures where they apply. */
export interface Decision {
  source: string;
  kind: BlockKind | 'file';
  reason: string;
  tokens?: number;
  [extra: string]: unknown;
}

export type DecisionSection = 'selected' | 'rejected' | 'trimmed' | 'offloaded' | 'indexed' | 'compacted';

export interface Warning {
  source: string;
  message: string;
  line?: number;
  column?: number;
  /** For a redaction: the id of the secret rule that matched (the manifest lists these under `redactions`). */
  rule?: string;
}

export interface Decisions {
  selected: Decision[];
  rejected: Decision[];
  trimmed: Decision[];
  offloaded: Decision[];
  indexed: Decision[];
  compacted: Decision[];
  /** Steps taken by `enforce`, in order. */
  degraded: Decision[];
  warnings: Warning[];
}

export function emptyDecisions(): Decisions {
  return { selected: [], rejected: [], trimmed: [], offloaded: [], indexed: [], compacted: [], degraded: [], warnings: [] };
}

export function mergeDecisions(...parts: Partial<Decisions>[]): Decisions {
  const out = emptyDecisions();
  for (const part of parts) {
    for (const key of Object.keys(out) as (keyof Decisions)[]) {
      const items = part[key];
      if (items) (out[key] as unknown[]).push(...items);
    }
  }
  return out;
}

/** What a stage returns: its result and the decisions it took. */
export interface StageResult<T> {
  value: T;
  decisions: Partial<Decisions>;
}
