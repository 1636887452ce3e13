/* The Trace tab: the manifest's rows as a real table that wraps inside the panel at any width, the budget head
   above it, and the plain-text trace (as written to trace.txt) folded below for copying. */
import { formatTokens } from '../view-model/format';
import type { PanelPreview } from '../vscode/protocol';
import { el, fmt } from './dom';

export function tracePane(p: PanelPreview): HTMLElement {
  const pane = el('div', { role: 'tabpanel', id: 'pane-trace', 'aria-labelledby': 'tab-trace' });
  const h = p.details?.head;
  if (h) {
    const rows: [string, string][] = [
      ['Maximum input', fmt(h.maxInput)],
      ['Mandatory blocks', h.mandatoryParts ? `${fmt(h.mandatory)} (${h.mandatoryParts})` : fmt(h.mandatory)],
      ['Available for context', fmt(h.maxInput - h.mandatory)],
      ['Final request', `${fmt(h.final)}${h.bytes !== undefined ? ` (${fmt(h.bytes)} bytes)` : ''}`],
      ['Model', `${h.model}${h.encoding ? ` (${h.encoding})` : ''}`],
    ];
    pane.append(el('table', { class: 'trace-head' }, el('tbody', {}, ...rows.map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, v))))));
  }
  const rows = p.details?.traceRows ?? [];
  if (rows.length) {
    const body = el('tbody', {});
    let section = '';
    for (const r of rows) {
      if (r.section !== section) {
        section = r.section;
        body.append(el('tr', { class: 'trace-section' }, el('th', { colspan: '3', scope: 'colgroup' }, section)));
      }
      // The reason gets a row of its own, across the table: it wraps at full width, even at 300 px.
      body.append(
        el(
          'tr',
          { class: `trace-row verdict-${r.verdict.toLowerCase()}` },
          el('td', { class: 'trace-source' }, el('span', { class: 'source' }, r.source)),
          el('td', { class: 'trace-verdict' }, r.verdict),
          el('td', { class: 'trace-tokens' }, r.tokens !== undefined ? formatTokens(r.tokens, r.exact) : '–'),
        ),
        el('tr', { class: 'trace-reason' }, el('td', { colspan: '3', class: 'reason' }, r.detail)),
      );
    }
    const head = el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Block (reason below)'), el('th', { scope: 'col' }, 'Verdict'), el('th', { scope: 'col' }, 'Tokens')));
    pane.append(el('table', { class: 'trace-table', id: 'trace-table', tabindex: '0' }, head, body));
  }
  if (!h && !rows.length) pane.append(el('p', {}, 'No trace yet.'));
  if (p.trace) pane.append(el('details', { class: 'trace-text' }, el('summary', {}, 'Plain-text trace'), el('pre', { class: 'trace', tabindex: '0' }, p.trace)));
  return pane;
}
