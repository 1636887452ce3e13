/* The per-item actions (Include, Exclude, Pin or Unpin, Open, Copy) as one ARIA toolbar: a single tab stop, arrow
   keys, Home and End move between its buttons. Every action posts a typed message; the host executes it. */
import { actionLabel, actionsFor, type ActionItem, type ItemAction } from '../view-model/item-actions';
import { isBuiltin } from '../view-model/source';
import type { OutgoingMessage } from '../vscode/protocol';
import { el, rovingIndex } from './dom';
import { send } from './state';

interface Target extends ActionItem {
  blockId?: string;
  /** Makes the buttons' ids unique when a source is listed twice (a ladder step and a trim of the same log). */
  group?: string;
  /** A label of its own for an action in this place (Remove include in a refusal). */
  labels?: Partial<Record<ItemAction, string>>;
}

const TITLES: Record<ItemAction, string> = {
  include: 'Include in request (stored in .context/overrides.json)',
  exclude: 'Exclude from request (stored in .context/overrides.json)',
  reset: 'Reset to automatic: remove your override from .context/overrides.json',
  pin: 'Pin as a mandatory block',
  unpin: 'Unpin',
  edit: 'Open to edit',
  policy: 'Open the policy line that governs this built-in block',
  open: 'Open the source',
  copy: 'Copy',
};

/** The message an action posts: Unpin names its pin, every other action its source. */
function messageOf(a: ItemAction, t: Target): OutgoingMessage {
  if (a === 'unpin' && t.pinId) return { type: 'unpin', pinId: t.pinId };
  const action = a === 'edit' ? 'open' : a;
  return { type: 'blockAction', action: action as Exclude<ItemAction, 'edit' | 'unpin'>, source: t.source, ...(t.blockId ? { blockId: t.blockId } : {}) };
}

/** Roving tabindex: the toolbar is one tab stop; arrows, Home and End move inside it. */
export function toolbar(label: string, buttons: HTMLButtonElement[], id?: string): HTMLElement {
  const bar = el('div', { role: 'toolbar', class: 'item-actions', 'aria-label': label, ...(id ? { id } : {}) }, ...buttons);
  buttons.forEach((b, i) => {
    b.tabIndex = i === 0 ? 0 : -1;
    b.addEventListener('keydown', (e) => {
      const next = rovingIndex(e.key, i, buttons.length);
      if (next < 0) return;
      e.preventDefault();
      e.stopPropagation();
      b.tabIndex = -1;
      buttons[next].tabIndex = 0;
      buttons[next].focus();
    });
  });
  return bar;
}

/** A small action button; a click does not also toggle the block it sits in. */
export function small(label: string, title: string, onClick: () => void, cls: string, id?: string): HTMLButtonElement {
  // A stable id lets a re-render (a background preview) put the focus back on the same action.
  const b = el('button', { class: `secondary small ${cls}`, title, 'aria-label': title, ...(id ? { id } : {}) }, label);
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick();
  });
  return b;
}

export function itemActions(t: Target): HTMLElement {
  const key = `act:${t.sent ? 'sent' : (t.group ?? 'out')}:${t.blockId ?? t.source}`;
  const buttons = actionsFor(t).map((a) =>
    small(t.labels?.[a] ?? actionLabel(a, t.kind), a === 'copy' && !t.blockId ? 'Copy the path' : `${TITLES[a]}: ${t.source}`, () => send(messageOf(a, t)), `act-${a}`, `${key}:${a}`),
  );
  return toolbar(`Actions for ${t.source}`, buttons);
}

/** A path with a break opportunity after each separator: at any width it wraps between folders, never mid-name. */
export function pathText(source: string): (string | HTMLElement)[] {
  const parts = source.split(/(?<=[/#])/);
  return parts.flatMap((p, i) => (i < parts.length - 1 ? [p, el('wbr')] : [p]));
}

/** A source in a block's row: plain text (a click on the row expands it; Open is among its actions). */
export function sourceText(source: string): HTMLElement {
  return el('span', { class: `source${isBuiltin(source) ? ' builtin' : ''}`, title: source }, ...pathText(source));
}

/** A source as text: a link-looking span for a file (a click opens it), plain text for a built-in. */
export function sourceLabel(source: string): HTMLElement {
  if (isBuiltin(source)) return el('span', { class: 'source builtin', title: `${source}: produced by the extension, not a file` }, source);
  const s = el('span', { class: 'source link', title: `Open ${source}` }, ...pathText(source));
  s.addEventListener('click', (e) => {
    e.preventDefault();
    e.stopPropagation();
    send({ type: 'blockAction', action: 'open', source });
  });
  return s;
}
