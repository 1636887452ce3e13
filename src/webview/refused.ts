/* A refused request: what is over, by how much, and each protected block with Unpin (for a pin) and Open, in the
   theme's error colours. Never one run-on paragraph. */
import { isBuiltin } from '../view-model/source';
import type { PanelPreview } from '../vscode/protocol';
import { el, fmt } from './dom';
import { small as act, toolbar } from './item-actions';
import { send } from './state';

export function refusedSection(p: PanelPreview): HTMLElement {
  const over = (p.final ?? 0) - (p.maxInput ?? 0);
  const blocks = [...p.blocks].sort((a, b) => b.tokens - a.tokens);
  const rows = blocks.map((b) => {
    const pinId = p.details?.pins[b.id];
    const buttons = [
      ...(pinId ? [act('Unpin', `Unpin ${b.source}`, () => send({ type: 'unpin', pinId }), 'act-unpin')] : []),
      ...(isBuiltin(b.source) ? [] : [act('Open', `Open ${b.source}`, () => send({ type: 'blockAction', action: 'open', source: b.source }), 'act-open')]),
    ];
    return el(
      'li',
      { class: 'refused-block' },
      el('div', { class: 'ns-head' }, el('span', { class: 'kind' }, b.kind), el('span', { class: 'source' }, b.source), el('span', { class: 'tokens' }, `${fmt(b.tokens)} tok`)),
      buttons.length ? toolbar(`Actions for ${b.source}`, buttons) : el('p', { class: 'note' }, pinId ? '' : 'Built in: shorten it through the policy.'),
    );
  });
  return el(
    'section',
    { class: 'refused', id: 'refused', role: 'alert' },
    el('h3', {}, el('span', { class: 'err-icon', 'aria-hidden': 'true' }, '✗ '), 'Refused: the protected blocks alone do not fit'),
    el('p', {}, `They need ${fmt(p.final)} tokens; the request may hold ${fmt(p.maxInput)}. Over by ${fmt(Math.max(0, over))}.`),
    el('p', {}, 'Unpin a block or shorten a rule, then preview again. Nothing can be sent, copied or exported until then.'),
    el('ul', { class: 'refused-blocks' }, ...rows),
  );
}
