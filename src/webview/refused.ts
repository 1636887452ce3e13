/* A refused request: what is over, by how much, its cause, and each protected block with the fix in place (Remove
   include for a document you included, Unpin for a pin, Edit rule for a rule, the policy line for a built-in), in
   the theme's error colours. Never one run-on paragraph. */
import { refusalAdvice } from '../view-model/refusal';
import type { PanelPreview } from '../vscode/protocol';
import { el, fmt } from './dom';
import { itemActions, pathText, small, toolbar } from './item-actions';
import { send } from './state';

export function refusedSection(p: PanelPreview): HTMLElement {
  const blocks = [...p.blocks].sort((a, b) => b.tokens - a.tokens);
  const advice = refusalAdvice({ final: p.final ?? 0, maxInput: p.maxInput ?? 0, window: p.details?.envelope?.window, blocks, overrides: p.details?.overrides ?? {} });
  const rows = blocks.map((b) => {
    const override = p.details?.overrides[b.source];
    const cause = override === 'include' ? el('p', { class: 'cause' }, 'Included by you: it is what does not fit.') : undefined;
    return el(
      'li',
      { class: `refused-block${override === 'include' ? ' refused-cause' : ''}` },
      el('div', { class: 'ns-head' }, el('span', { class: 'kind' }, b.kind), el('span', { class: 'source' }, ...pathText(b.source)), el('span', { class: 'tokens' }, `${fmt(b.tokens)} tok`)),
      cause,
      itemActions({ source: b.source, kind: b.kind, blockId: b.id, sent: false, protected: override !== 'include', pinId: p.details?.pins[b.id], override, group: 'refused', labels: { reset: 'Remove include' } }),
    );
  });
  const envelope = small('Open policy: window', `Open the policy line of the envelope's window (${fmt(advice.windowToFit)} would fit)`, () => send({ type: 'blockAction', action: 'policy', source: 'builtin:envelope' }), 'act-policy', 'refused:window');
  return el(
    'section',
    { class: 'refused', id: 'refused', role: 'alert' },
    el('h3', {}, el('span', { class: 'err-icon', 'aria-hidden': 'true' }, '✗ '), advice.title),
    el('p', {}, `They need ${fmt(p.final)} tokens; the request may hold ${fmt(p.maxInput)}. Over by ${fmt(advice.over)}.`),
    el('p', { id: 'refused-fix' }, advice.fix),
    toolbar('Fix the envelope', [envelope]),
    el('ul', { class: 'refused-blocks' }, ...rows),
  );
}
