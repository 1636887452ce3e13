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
  | { type: 'busy'; busy: boolean }
  | { type: 'sendStarted'; provider: string; model: string }
  | { type: 'sendDelta'; text: string }
  | { type: 'sendDone'; error?: string; note?: string };

export type PanelMessage =
  | { type: 'ready' }
  | { type: 'preview'; task: string }
  | { type: 'send'; task: string }
  | { type: 'cancel' }
  | { type: 'setTask'; task: string }
  | { type: 'setProvider'; provider: string }
  | { type: 'setModel'; model: string }
  | { type: 'setPolicy'; policyPath: string }
  | { type: 'copyRequest' }
  | { type: 'exportRequest' }
  | { type: 'openSource'; source: string }
  | { type: 'session'; action: 'compact' | 'edit' | 'undo' }
  | { type: 'compareSend' };

const PANEL_TYPES: readonly PanelMessage['type'][] = ['ready', 'preview', 'send', 'cancel', 'setTask', 'setProvider', 'setModel', 'setPolicy', 'copyRequest', 'exportRequest', 'openSource', 'session', 'compareSend'];

/** Messages from a webview are untrusted input: check the shape before acting on one. */
export function isPanelMessage(value: unknown): value is PanelMessage {
  if (!value || typeof value !== 'object') return false;
  const m = value as Record<string, unknown>;
  if (!PANEL_TYPES.includes(m.type as PanelMessage['type'])) return false;
  switch (m.type) {
    case 'preview':
    case 'send':
    case 'setTask':
      return typeof m.task === 'string';
    case 'setProvider':
      return typeof m.provider === 'string';
    case 'setModel':
      return typeof m.model === 'string';
    case 'setPolicy':
      return typeof m.policyPath === 'string';
    case 'openSource':
      return typeof m.source === 'string';
    case 'session':
      return m.action === 'compact' || m.action === 'edit' || m.action === 'undo';
    default:
      return true;
  }
}
