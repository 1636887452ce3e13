import type { DroppedEvidence } from '../view-model/dropped';
import type { EnvelopePart } from '../view-model/envelope';
import type { NotSentItem } from '../view-model/not-sent';
import type { TraceRow } from '../view-model/trace-table';

/**
 * The typed message protocol between the host and the panel webview. Both sides import these types
 * (the webview bundle is built from src/webview/), so a message is checked at compile time on both ends.
 */

export interface PanelBlock {
  id: string;
  kind: string;
  source: string;
  zone: string;
  tokens: number;
  reason: string;
  /** The exact text this block contributes to the request. */
  text: string;
}

export interface PanelCompaction {
  events: number;
  range: string;
  tokensBefore: number;
  tokensAfter: number;
  label: string;
  summary: string;
}

export interface PanelPreview {
  status: 'ok' | 'warning' | 'refused' | 'error';
  message?: string;
  final?: number;
  maxInput?: number;
  mandatory?: number;
  zones: { zone: string; tokens: number }[];
  blocks: PanelBlock[];
  warnings: string[];
  /** What the task analysis understood, one line per kind (`Identifiers: paymentMethod, BAD_REQUEST`). */
  signals?: string[];
  trace: string;
  model: string;
  provider: string;
  compaction?: PanelCompaction;
  session?: { stored: number; kept_raw: number; compacted: number; omitted: number };
  /** The details below come from src/vscode/views/panel-actions.ts (detailsFor). */
  details?: PanelDetails;
  /** Why there is no request, when a workspace file is at fault: shown at the top of the panel with Open (and Fix). */
  problem?: PanelProblem;
}

/** A broken policy, pins, overrides or checks file: where, what, and the quick fix's title when there is one. */
export interface PanelProblem {
  file: string;
  line: number;
  column?: number;
  message: string;
  fix?: string;
}

/** The key evidence the budget dropped, and the window that holds it (verified by assembling). */
export interface PanelDropped {
  items: DroppedEvidence[];
  window: number;
  windowToFit?: number;
  /** The window is not found yet: the panel asks (findWindow); the answer names this search. */
  search?: number;
}

/** What the panel shows beyond the sent blocks, all computed from the manifest (or the refusal). */
export interface PanelDetails {
  /** Zones, overhead, free room, output reserve and margin: they add up to the window. */
  envelope?: { window: number; parts: EnvelopePart[]; over: number };
  notSent: NotSentItem[];
  /** Every step the budget ladder took, in order. */
  ladder: { step: number; source: string; reason: string; requestBefore?: number; requestAfter?: number }[];
  traceRows: TraceRow[];
  /** The cache-friendly prefix: same as the previous request or changed. */
  cache?: { prefixTokens: number; prefixHash: string; changed?: boolean };
  /** Pinned blocks by block id → pin id, for Unpin. */
  pins: Record<string, string>;
  /** The user's override of each source shown that has one (`.context/overrides.json`), for Reset to automatic. */
  overrides: Record<string, 'include' | 'exclude'>;
  /** The task file the settings name (the task when the task box is empty). */
  taskFile: string;
  /** The key evidence the budget dropped, and the window at which the chain sends it all (verified by assembling). */
  dropped?: PanelDropped;
  /** Budget figures of the trace's head. */
  head?: { maxInput: number; mandatory: number; /** What the mandatory figure holds (protected + session summary + framing). */ mandatoryParts?: string; final: number; bytes?: number; model: string; encoding?: string };
}

export interface PanelSettings {
  provider: string;
  model: string;
  policyPath: string;
}

/** The Compare tab: variants side by side, the decisions diff, and after a send the answers with their checks. */
export interface PanelCompareVariant {
  name: string;
  policy: string;
  final: number;
  maxInput: number;
  mandatory: number;
  zones: { zone: string; tokens: number }[];
  counts: { selected: number; rejected: number; trimmed: number; offloaded: number; indexed: number };
  evidence: { ok: boolean; text: string }[];
  runs: { run: number; answer: string; error?: string; inputTokens?: number; outputTokens?: number; checks: { ok: boolean; text: string }[] }[];
}

export interface PanelCompare {
  status: 'running' | 'done' | 'error';
  message?: string;
  task: string;
  model: string;
  provider: string;
  variants: PanelCompareVariant[];
  diff: { source: string; kind: string; change: 'loaded' | 'verdict' | 'tokens'; variants: { verdict: string; tokens: number; reason: string }[] }[];
  same: number;
}

export type HostMessage =
  | { type: 'compare'; compare: PanelCompare }
  | { type: 'init'; settings: PanelSettings; providers: string[]; policies: string[]; task: string; trusted: boolean }
  | { type: 'preview'; preview: PanelPreview }
  /** The answer of findWindow for the banner shown: the same items, with the window (or none found in time). */
  | { type: 'dropped'; search: number; dropped: PanelDropped }
  | { type: 'busy'; busy: boolean }
  | { type: 'sendStarted'; provider: string; model: string }
  | { type: 'sendDelta'; text: string }
  | { type: 'sendDone'; error?: string; /** The button that fixes the error (Set API Key…). */ fix?: ProviderFix; note?: string; /** The dry run's request file: shown once, as a link. */ file?: string; usage?: { inputTokens?: number; outputTokens?: number; cachedTokens?: number } };

/** The fixes a provider error offers (core/providers/errors.ts), run by the host. */
export type ProviderFix = 'Set API Key' | 'Select model' | 'Check network / base URL';
export const PROVIDER_FIXES: readonly ProviderFix[] = ['Set API Key', 'Select model', 'Check network / base URL'];

export type PanelMessage =
  | { type: 'ready' }
  | { type: 'providerFix'; fix: ProviderFix }
  | { type: 'openFile'; file: string }
  | { type: 'preview'; task: string }
  | { type: 'send'; task: string }
  | { type: 'cancel' }
  | { type: 'setTask'; task: string }
  | { type: 'setProvider'; provider: string }
  | { type: 'setModel'; model: string }
  | { type: 'setPolicy'; policyPath: string }
  | { type: 'copyRequest' }
  | { type: 'exportRequest' }
  | { type: 'openSource'; source: string; line?: number }
  | { type: 'applyFix'; file: string }
  | { type: 'session'; action: 'compact' | 'edit' | 'undo' }
  | { type: 'compareSend' }
  /** The "Dropped to fit" banner is shown without its window: find it (assembling at larger windows, in the worker). */
  | { type: 'findWindow' };

/** Acting on one block or not-sent item (handled by src/vscode/views/panel-actions.ts). */
export type PanelActionMessage =
  | { type: 'blockAction'; action: BlockAction; source: string; blockId?: string }
  | { type: 'unpin'; pinId: string };

/** reset: clear the override (Reset to automatic); policy: open the policy line of a built-in block. */
export type BlockAction = 'include' | 'exclude' | 'reset' | 'pin' | 'policy' | 'open' | 'copy';
export const BLOCK_ACTIONS: readonly BlockAction[] = ['include', 'exclude', 'reset', 'pin', 'policy', 'open', 'copy'];

/** Every message the webview may post. */
export type OutgoingMessage = PanelMessage | PanelActionMessage;

/** How one field is checked: a string, an optional string, or one of a fixed set of strings. */
type FieldCheck = 'string' | 'string?' | 'line?' | readonly string[];
/**
 * The runtime shape of every message, derived from the union: a type without an entry, or a field without a check,
 * is a compile error, so a new message cannot be forgotten by the guard.
 */
type Shapes<U extends { type: string }> = { [K in U['type']]: { [F in Exclude<keyof Extract<U, { type: K }>, 'type'>]-?: FieldCheck } };

const PANEL_SHAPES: Shapes<PanelMessage> = {
  ready: {},
  providerFix: { fix: PROVIDER_FIXES },
  openFile: { file: 'string' },
  preview: { task: 'string' },
  send: { task: 'string' },
  cancel: {},
  setTask: { task: 'string' },
  setProvider: { provider: 'string' },
  setModel: { model: 'string' },
  setPolicy: { policyPath: 'string' },
  copyRequest: {},
  exportRequest: {},
  openSource: { source: 'string', line: 'line?' },
  applyFix: { file: 'string' },
  session: { action: ['compact', 'edit', 'undo'] },
  compareSend: {},
  findWindow: {},
};

const ACTION_SHAPES: Shapes<PanelActionMessage> = {
  blockAction: { action: BLOCK_ACTIONS, source: 'string', blockId: 'string?' },
  unpin: { pinId: 'string' },
};

function fits(value: unknown, shapes: Record<string, Record<string, FieldCheck>>): boolean {
  if (!value || typeof value !== 'object') return false;
  const m = value as Record<string, unknown>;
  if (typeof m.type !== 'string' || !Object.prototype.hasOwnProperty.call(shapes, m.type)) return false;
  return Object.entries(shapes[m.type]).every(([field, check]) => {
    const v = m[field];
    if (check === 'string') return typeof v === 'string';
    if (check === 'string?') return v === undefined || typeof v === 'string';
    if (check === 'line?') return v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= 1);
    return typeof v === 'string' && check.includes(v);
  });
}

/** Messages from a webview are untrusted input: check the shape before acting on one. */
export function isPanelMessage(value: unknown): value is PanelMessage {
  return fits(value, PANEL_SHAPES);
}

export function isPanelAction(value: unknown): value is PanelActionMessage {
  return fits(value, ACTION_SHAPES);
}
