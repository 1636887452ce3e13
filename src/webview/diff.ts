/* The Changes tab, "Compare with previous preview": blocks added, removed and changed, each with its token delta,
   and the request's own delta. Every change has an icon and a word, never colour alone. */
import { diffPreviews, type BlockChange } from '../view-model/preview-diff';
import { formatNumber } from '../view-model/format';
import type { PanelPreview } from '../vscode/protocol';
import { el, fmt } from './dom';

const ICON: Record<BlockChange['change'], string> = { added: '+', removed: '−', changed: '~' };
const delta = (n: number) => (n > 0 ? `+${formatNumber(n)}` : n < 0 ? formatNumber(n) : '±0');

export function changesPane(p: PanelPreview, previous: PanelPreview | undefined): HTMLElement {
  const pane = el('div', { role: 'tabpanel', id: 'pane-changes', 'aria-labelledby': 'tab-changes' }, el('h3', {}, 'Compare with previous preview'));
  if (!previous) {
    pane.append(el('p', {}, 'No previous preview yet: preview again after changing the task, a pin or the policy.'));
    return pane;
  }
  const d = diffPreviews(previous, p);
  pane.append(el('p', { id: 'diff-total' }, `Request ${fmt(d.finalBefore)} → ${fmt(d.finalAfter)} tokens (${delta((d.finalAfter ?? 0) - (d.finalBefore ?? 0))}); ${d.changes.length} block(s) differ, ${d.same} unchanged.`));
  if (!d.changes.length) {
    pane.append(el('p', {}, '= The same blocks, with the same text, as the previous preview.'));
    return pane;
  }
  const rows = d.changes.map((c) =>
    el(
      'tr',
      { class: `change-${c.change}` },
      el('td', {}, el('span', { class: 'change-icon', 'aria-hidden': 'true' }, ICON[c.change]), ` ${c.change}${c.what ? ` (${c.what})` : ''}`),
      el('td', { class: 'trace-source' }, el('div', { class: 'source' }, c.source), el('div', { class: 'reason' }, c.kind)),
      el('td', { class: 'trace-tokens' }, `${fmt(c.before)} → ${fmt(c.after)}`, el('div', { class: 'delta' }, delta(c.delta))),
    ),
  );
  const head = el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Change'), el('th', { scope: 'col' }, 'Block'), el('th', { scope: 'col' }, 'Tokens')));
  pane.append(el('table', { class: 'trace-table', id: 'diff-table', tabindex: '0' }, head, el('tbody', {}, ...rows)));
  return pane;
}
