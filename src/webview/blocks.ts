/* The Blocks tab: the blocks sent, in request order, then the "Not sent" section grouped by why. Each block is one
   tab stop (its summary); its actions show when it is open. Reasons wrap at any width. */
import { NOT_SENT_GROUPS, type NotSentItem } from '../view-model/not-sent';
import { formatTokens } from '../view-model/format';
import type { PanelBlock, PanelPreview } from '../vscode/protocol';
import { el, fmt } from './dom';
import { itemActions, sourceLabel, toolbar } from './item-actions';
import { refusedSection } from './refused';
import { ui } from './state';

function sentBlock(p: PanelPreview, b: PanelBlock, i: number): HTMLElement {
  const pinId = p.details?.pins[b.id];
  const summary = el('summary', { id: `sum-${i}`, 'aria-label': `${b.kind} ${b.source}, ${fmt(b.tokens)} tokens` }, el('span', { class: `kind zone-${b.zone}` }, b.kind), sourceLabel(b.source), el('span', { class: 'tokens' }, `${fmt(b.tokens)} tok`));
  summary.addEventListener('keydown', (e) => moveBetween(e, summary));
  const details = el('details', { class: 'block' }, summary, el('p', { class: 'reason' }, b.reason), itemActions({ source: b.source, blockId: b.id, pinId, sent: true }), el('pre', { class: 'text' }, b.text || '(text not shown)'));
  details.open = ui.open.has(b.id);
  details.addEventListener('toggle', () => (details.open ? ui.open.add(b.id) : ui.open.delete(b.id)));
  return el('li', {}, details);
}

/** ArrowUp / ArrowDown move between block summaries; Home / End go to the first and last. */
function moveBetween(e: KeyboardEvent, from: HTMLElement): void {
  const all = Array.from(document.querySelectorAll<HTMLElement>('ol.blocks summary'));
  const i = all.indexOf(from);
  const to = e.key === 'ArrowDown' ? all[i + 1] : e.key === 'ArrowUp' ? all[i - 1] : e.key === 'Home' ? all[0] : e.key === 'End' ? all.at(-1) : undefined;
  if (!to) return;
  e.preventDefault();
  to.focus();
}

function notSentItem(n: NotSentItem): HTMLElement {
  const tokens = n.tokens !== undefined ? el('span', { class: 'tokens' }, `${formatTokens(n.tokens, n.exact)} tok`) : undefined;
  return el('li', { class: `ns-item ns-${n.group}` }, el('div', { class: 'ns-head' }, el('span', { class: 'kind' }, n.kind), sourceLabel(n.source), tokens), el('p', { class: 'reason' }, n.reason), itemActions({ source: n.source, sent: false, group: n.group }));
}

function notSent(p: PanelPreview): HTMLElement | undefined {
  const items = p.details?.notSent ?? [];
  if (!p.details) return undefined;
  const section = el('section', { class: 'not-sent', id: 'not-sent', 'aria-label': 'Not sent' }, el('h3', {}, `Not sent (${items.length})`));
  if (!items.length) section.append(el('p', { class: 'note' }, 'Everything the workspace offered is in the request.'));
  for (const g of NOT_SENT_GROUPS) {
    const group = items.filter((n) => n.group === g.group);
    if (!group.length) continue;
    const d = el('details', { class: 'ns-group', id: `ns-${g.group}` }, el('summary', {}, `${g.title} (${group.length})`), el('ul', {}, ...group.map(notSentItem)));
    d.open = !ui.open.has(`closed:${g.group}`);
    d.addEventListener('toggle', () => (d.open ? ui.open.delete(`closed:${g.group}`) : ui.open.add(`closed:${g.group}`)));
    section.append(d);
  }
  return section;
}

export function blocksPane(p: PanelPreview, onCompare: () => void): HTMLElement {
  const pane = el('div', { role: 'tabpanel', id: 'pane-blocks', 'aria-labelledby': 'tab-blocks' });
  if (p.status === 'refused') pane.append(refusedSection(p));
  // An error is shown above the actions, whatever the tab (problem.ts).
  if (p.signals?.length) {
    // Kept open across re-renders (a re-assembly while you read), as the blocks and the not-sent groups are.
    const signals = el('details', { class: 'signals' }, el('summary', {}, 'Task signals'), el('ul', {}, ...p.signals.map((s) => el('li', {}, s))));
    signals.open = ui.open.has('section:signals');
    signals.addEventListener('toggle', () => (signals.open ? ui.open.add('section:signals') : ui.open.delete('section:signals')));
    pane.append(signals);
  }
  if (p.status !== 'refused' && p.blocks.length) {
    const compare = el('button', { class: 'secondary small', id: 'compare-prev-btn', title: ui.previous ? 'Blocks added, removed and changed since the previous preview' : 'No previous preview yet' }, 'Compare with previous preview');
    if (!ui.previous) compare.setAttribute('aria-disabled', 'true');
    compare.addEventListener('click', () => ui.previous && onCompare());
    pane.append(el('div', { class: 'pane-head' }, el('h3', {}, `Sent (${p.blocks.length})`), toolbar('Preview tools', [compare])));
    pane.append(el('ol', { class: 'blocks' }, ...p.blocks.map((b, i) => sentBlock(p, b, i))));
  }
  // Without a request (refused, or an error) nothing was "left out" of it.
  const ns = p.status === 'refused' || p.status === 'error' ? undefined : notSent(p);
  if (ns) pane.append(ns);
  if (p.warnings.length) pane.append(el('h3', {}, 'Warnings'), el('ul', { class: 'warnings' }, ...p.warnings.map((w) => el('li', {}, w))));
  return pane;
}
