/**
 * Which actions the panel offers on one item, decided once for every list (sent blocks, not sent, refused): an
 * action is offered only when it changes the request as its label says.
 */
import { isBuiltin, isWholeFile } from './source';

/**
 * include / exclude / reset: the user's override (`.context/overrides.json`); pin / unpin: `.context/pins.json`;
 * edit: open a protected rule or task file to change it; policy: open the policy line that governs a built-in block;
 * open, copy: change nothing.
 */
export type ItemAction = 'include' | 'exclude' | 'reset' | 'pin' | 'unpin' | 'edit' | 'policy' | 'open' | 'copy';

/** The kinds the chain's overrides act on (chain/overrides.ts): anything else is protected or not a file of its own. */
export const OVERRIDABLE_KINDS: readonly string[] = ['document', 'decision', 'source_code', 'tool_result'];

export interface ActionItem {
  source: string;
  kind: string;
  /** In the request now. */
  sent: boolean;
  /** In the protected zone (a rule, a pin, the task, a built-in): never excluded. */
  protected: boolean;
  /** The pin behind a pinned block. */
  pinId?: string;
  /** The user's override of this source, if any. */
  override?: 'include' | 'exclude';
}

export const ACTION_LABELS: Record<ItemAction, string> = {
  include: 'Include',
  exclude: 'Exclude',
  reset: 'Reset to automatic',
  pin: 'Pin',
  unpin: 'Unpin',
  edit: 'Edit rule',
  policy: 'Open policy line',
  open: 'Open',
  copy: 'Copy',
};

/**
 * In order: the override actions (the opposite of the current override and Reset to automatic when there is one;
 * Exclude first for a sent item), then Pin or Unpin, Edit (a protected rule), Open the policy line (a built-in),
 * Open and Copy. A protected block offers no Include or Exclude: Unpin for a pin, Edit rule for a rule.
 */
export function actionsFor(t: ActionItem): ItemAction[] {
  const file = isWholeFile(t.source) && t.source !== 'task';
  const list: ItemAction[] = [];
  if (file && !t.protected && OVERRIDABLE_KINDS.includes(t.kind)) {
    if (t.override === 'include') list.push('exclude', 'reset');
    else if (t.override === 'exclude') list.push('include', 'reset');
    else list.push(...(t.sent ? (['exclude', 'include'] as const) : (['include', 'exclude'] as const)));
  }
  if (t.pinId) list.push('unpin');
  else if (file && !t.protected && t.kind !== 'current_task') list.push('pin');
  if (t.protected && !t.pinId && file && (t.kind === 'agents_md' || t.kind === 'current_task')) list.push('edit');
  if (isBuiltin(t.source) && t.protected) list.push('policy');
  if (!isBuiltin(t.source) && t.source !== 'task' && !list.includes('edit')) list.push('open');
  list.push('copy');
  return list;
}

/** An action's label on an item: Edit task for the task file, Edit rule for a rule. */
export function actionLabel(a: ItemAction, kind: string): string {
  return a === 'edit' && kind === 'current_task' ? 'Edit task' : ACTION_LABELS[a];
}
