/* The Session tab (events kept, compacted, omitted; the compaction preview and its actions) and the Answer tab. */
import { sessionBlocked } from '../view-model/gates';
import type { PanelPreview } from '../vscode/protocol';
import { button } from './controls';
import { el, fmt } from './dom';
import { send, ui } from './state';

export function sessionPane(p: PanelPreview): HTMLElement {
  const pane = el('div', { role: 'tabpanel', id: 'pane-session', 'aria-labelledby': 'tab-session' });
  if (p.session) pane.append(el('p', {}, `${p.session.stored} events stored · ${p.session.kept_raw} kept raw · ${p.session.compacted} compacted · ${p.session.omitted} omitted`));
  else pane.append(el('p', {}, 'No session: nothing has been sent from this workspace yet.'));
  if (p.compaction) {
    const c = p.compaction;
    pane.append(
      el('h3', {}, 'Compaction preview'),
      el('p', {}, `${c.events} events (${c.range}) folded: ${fmt(c.tokensBefore)} → ${fmt(c.tokensAfter)} tokens. ${c.label}.`),
      el('pre', { class: 'text', tabindex: '0' }, c.summary),
    );
  } else pane.append(el('p', {}, 'Nothing compacted for this request.'));
  const why = sessionBlocked(p.session, !!p.compaction);
  pane.append(
    el(
      'div',
      { class: 'actions' },
      button('compact-btn', 'Compact now', () => send({ type: 'session', action: 'compact' }), { secondary: true, blocked: why.compact, title: 'Store a fresh summary of the older events' }),
      button('edit-summary-btn', 'Edit summary…', () => send({ type: 'session', action: 'edit' }), { secondary: true, blocked: why.summary }),
      button('undo-summary-btn', 'Undo summary', () => send({ type: 'session', action: 'undo' }), { secondary: true, blocked: why.summary ?? why.compact, title: 'Undo the active stored summary' }),
    ),
  );
  return pane;
}

export function answerPane(): HTMLElement {
  return el(
    'div',
    { role: 'tabpanel', id: 'pane-answer', 'aria-labelledby': 'tab-answer' },
    ui.answerNote ? el('p', { class: ui.answerFailed ? 'message status-error' : 'note', id: 'answer-note' }, ui.answerNote) : undefined,
    el('pre', { class: 'answer', id: 'answer', tabindex: '0' }, ui.answer || (ui.sending ? '…' : 'Nothing sent yet.')),
  );
}
