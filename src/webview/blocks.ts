/* The Blocks tab: the blocks sent, in request order, then the "Not sent" section grouped by why. Each block is one
   tab stop (its summary); its actions show when it is open. Reasons wrap at any width. */
import { matchesFilter, NOT_SENT_GROUPS, type NotSentItem } from '../view-model/not-sent';
import { formatTokens } from '../view-model/format';
import type { PanelBlock, PanelPreview } from '../vscode/protocol';
import { el, fmt } from './dom';
import { itemActions, sourceLabel, sourceText, toolbar } from './item-actions';
import { refusedSection } from './refused';
import { ui } from './state';

function sentBlock(p: PanelPreview, b: PanelBlock, i: number): HTMLElement {
  const pinId = p.details?.pins[b.id];
  const summary = el('summary', { id: `sum-${i}`, 'aria-label': `${b.kind} ${b.source}, ${fmt(b.tokens)} tokens` }, el('span', { class: `kind zone-${b.zone}` }, b.kind), sourceText(b.source), el('span', { class: 'tokens' }, `${fmt(b.tokens)} tok`));
  summary.addEventListener('keydown', (e) => moveBetween(e, summary));
  const details = el('details', { class: 'block' }, summary, el('p', { class: 'reason' }, b.reason), itemActions({ source: b.source, kind: b.kind, blockId: b.id, pinId, sent: true, protected: b.zone === 'protected', override: p.details?.overrides[b.source] }), el('pre', { class: 'text' }, b.text || '(text not shown)'));
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

function notSentItem(p: PanelPreview, n: NotSentItem): HTMLElement {
  const tokens = n.tokens !== undefined ? el('span', { class: 'tokens' }, `${formatTokens(n.tokens, n.exact)} tok`) : undefined;
  return el('li', { class: `ns-item ns-${n.group}` }, el('div', { class: 'ns-head' }, el('span', { class: 'kind' }, n.kind), sourceLabel(n.source), tokens), el('p', { class: 'reason' }, n.reason), itemActions({ source: n.source, kind: n.kind, sent: false, protected: false, group: n.group, override: p.details?.overrides[n.source] }));
}

/** Items rendered per group before "Show more": a list of 5 000 stays quick to draw and to read. */
const PAGE = 100;
/** Above this many items the list gets a filter box. */
const FILTER_FROM = 20;
/** The filter's text and how many items each group shows, kept across re-renders (a background preview). */
const view = { filter: '', shown: new Map<string, number>() };

function groupsOf(p: PanelPreview, items: NotSentItem[], into: HTMLElement): void {
  const shownItems = items.filter((n) => matchesFilter(n, view.filter));
  const parts: HTMLElement[] = [];
  if (view.filter && !shownItems.length) parts.push(el('p', { class: 'note', id: 'ns-none' }, `Nothing not sent matches "${view.filter}".`));
  for (const g of NOT_SENT_GROUPS) {
    const all = items.filter((n) => n.group === g.group);
    const group = shownItems.filter((n) => n.group === g.group);
    if (!group.length) continue;
    const limit = view.shown.get(g.group) ?? PAGE;
    const list = el('ul', {}, ...group.slice(0, limit).map((n) => notSentItem(p, n)));
    const count = group.length === all.length ? `${fmt(all.length)}` : `${fmt(group.length)} of ${fmt(all.length)}`;
    const d = el('details', { class: 'ns-group', id: `ns-${g.group}` }, el('summary', {}, `${g.title} (${count})`), list);
    if (group.length > limit) {
      const more = el('button', { class: 'secondary small show-more', id: `ns-more-${g.group}` }, `Show ${fmt(Math.min(PAGE * 5, group.length - limit))} more (${fmt(group.length - limit)} not shown)`);
      more.addEventListener('click', () => {
        view.shown.set(g.group, limit + PAGE * 5);
        groupsOf(p, items, into);
        document.getElementById(`ns-more-${g.group}`)?.focus();
      });
      d.append(more);
    }
    d.open = !ui.open.has(`closed:${g.group}`);
    d.addEventListener('toggle', () => (d.open ? ui.open.delete(`closed:${g.group}`) : ui.open.add(`closed:${g.group}`)));
    parts.push(d);
  }
  into.replaceChildren(...parts);
}

function notSent(p: PanelPreview): HTMLElement | undefined {
  const items = p.details?.notSent ?? [];
  if (!p.details) return undefined;
  const section = el('section', { class: 'not-sent', id: 'not-sent', 'aria-label': 'Not sent' }, el('h3', {}, `Not sent (${fmt(items.length)})`));
  if (!items.length) section.append(el('p', { class: 'note' }, 'Everything the workspace offered is in the request.'));
  const groups = el('div', { id: 'ns-groups' });
  if (items.length > FILTER_FROM) {
    const input = el('input', { type: 'search', id: 'ns-filter', class: 'ns-filter', placeholder: 'Filter by path, kind or reason', 'aria-label': 'Filter what was not sent', 'aria-controls': 'ns-groups' });
    input.value = view.filter;
    input.addEventListener('input', () => {
      view.filter = input.value;
      view.shown.clear();
      groupsOf(p, items, groups);
    });
    section.append(input);
  }
  groupsOf(p, items, groups);
  section.append(groups);
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
