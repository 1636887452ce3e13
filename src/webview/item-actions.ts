/* The per-item actions (Include, Exclude, Pin or Unpin, Open, Copy) as one ARIA toolbar: a single tab stop, arrow
   keys, Home and End move between its buttons. Every action posts a typed message; the host executes it. */
import { isBuiltin, isWholeFile } from '../view-model/source';
import type { BlockAction } from '../vscode/protocol';
import { el, rovingIndex } from './dom';
import { send } from './state';

interface Target {
  source: string;
  blockId?: string;
  /** The pin behind a pinned block: Unpin replaces Pin. */
  pinId?: string;
  /** Whether the item is in the request now (Exclude first) or not (Include first). */
  sent: boolean;
  /** Makes the buttons' ids unique when a source is listed twice (a ladder step and a trim of the same log). */
  group?: string;
}

const LABELS: Record<BlockAction, string> = { include: 'Include', exclude: 'Exclude', pin: 'Pin', open: 'Open', copy: 'Copy' };
const TITLES: Record<BlockAction, string> = {
  include: 'Include in request (stored in .context/overrides.json)',
  exclude: 'Exclude from request (stored in .context/overrides.json)',
  pin: 'Pin as a mandatory block',
  open: 'Open the source',
  copy: 'Copy',
};

function actionsFor(t: Target): BlockAction[] {
  const file = isWholeFile(t.source);
  const list: BlockAction[] = [];
  if (file) list.push(...(t.sent ? (['exclude', 'include'] as const) : (['include', 'exclude'] as const)));
  if (file && !t.pinId) list.push('pin');
  if (!isBuiltin(t.source)) list.push('open');
  list.push('copy');
  return list;
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
    small(LABELS[a], a === 'copy' && !t.blockId ? 'Copy the path' : `${TITLES[a]}: ${t.source}`, () => send({ type: 'blockAction', action: a, source: t.source, ...(t.blockId ? { blockId: t.blockId } : {}) }), `act-${a}`, `${key}:${a}`),
  );
  if (t.pinId) {
    const pinId = t.pinId;
    buttons.splice(Math.min(buttons.length, t.sent ? 2 : 0), 0, small('Unpin', `Unpin ${t.source}`, () => send({ type: 'unpin', pinId }), 'act-unpin', `${key}:unpin`));
  }
  return toolbar(`Actions for ${t.source}`, buttons);
}

/** A source as text: a link-looking span for a file (a click opens it), plain text for a built-in. */
export function sourceLabel(source: string): HTMLElement {
  if (isBuiltin(source)) return el('span', { class: 'source builtin', title: `${source}: produced by the extension, not a file` }, source);
  const s = el('span', { class: 'source link', title: `Open ${source}` }, source);
  s.addEventListener('click', (e) => {
    e.preventDefault();
    e.stopPropagation();
    send({ type: 'blockAction', action: 'open', source });
  });
  return s;
}
