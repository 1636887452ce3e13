/* The budget: the head figure, a bar of the whole window (zones, overhead, free room, output reserve, margin) with a
   marker for every ladder step, its legend, the ladder's warnings, and the cache prefix status. */
import { formatPercent } from '../view-model/format';
import { el, fmt } from './dom';
import type { PanelPreview } from '../vscode/protocol';

const LABEL: Record<string, string> = { tool_results: 'tool results', output_reserve: 'output reserve', free: 'free room' };
const label = (part: string) => LABEL[part] ?? part;

function head(p: PanelPreview): HTMLElement {
  const ratio = p.final !== undefined && p.maxInput ? p.final / p.maxInput : NaN;
  const tail = p.status === 'refused' ? ' — refused' : p.status === 'warning' ? ' — close to the limit' : '';
  return el('div', { class: `budget-head status-${p.status}`, id: 'budget-text', role: 'status', 'aria-live': 'polite' }, `${fmt(p.final)} / ${fmt(p.maxInput)} tokens (${formatPercent(ratio)})${tail}`);
}

function bar(p: PanelPreview): HTMLElement {
  const env = p.details?.envelope;
  const parts = env?.parts ?? p.zones.filter((z) => z.tokens > 0).map((z) => ({ part: z.zone, tokens: z.tokens }));
  const whole = Math.max(1, env ? env.window + env.over : (p.maxInput ?? 1));
  const b = el('div', { class: 'bar', id: 'budget-bar', role: 'img', 'aria-label': `Window of ${fmt(env?.window)} tokens: ${parts.map((z) => `${label(z.part)} ${fmt(z.tokens)}`).join(', ')}` });
  for (const z of parts) {
    const seg = el('span', { class: `seg zone-${z.part}`, title: `${label(z.part)}: ${fmt(z.tokens)} tokens` });
    // CSSOM, not a style attribute: the CSP allows no inline styles.
    seg.style.width = `${(z.tokens / whole) * 100}%`;
    b.append(seg);
  }
  for (const step of p.details?.ladder ?? []) {
    if (step.requestBefore === undefined) continue;
    const mark = el('span', { class: 'ladder-mark', title: `Ladder step ${step.step}: ${step.reason} (${fmt(step.requestBefore)} → ${fmt(step.requestAfter)} tokens)` }, String(step.step));
    mark.style.left = `${Math.min(100, (step.requestBefore / whole) * 100)}%`;
    b.append(mark);
  }
  return b;
}

function legend(p: PanelPreview): HTMLElement {
  const parts = p.details?.envelope?.parts ?? p.zones.filter((z) => z.tokens > 0).map((z) => ({ part: z.zone, tokens: z.tokens }));
  const items = parts.map((z) => el('li', {}, el('span', { class: `swatch zone-${z.part}` }), `${label(z.part)} ${fmt(z.tokens)}`));
  const env = p.details?.envelope;
  if (env) items.push(el('li', { class: 'legend-total' }, `= window ${fmt(env.window)}${env.over ? ` (over by ${fmt(env.over)})` : ''}`));
  return el('ul', { class: 'legend', id: 'budget-legend' }, ...items);
}

/** Every ladder step, as a warning at the top of the panel: nothing is dropped silently. */
export function ladderWarnings(p: PanelPreview): HTMLElement | undefined {
  const steps = p.details?.ladder ?? [];
  if (!steps.length) return undefined;
  return el(
    'section',
    { class: 'ladder', id: 'ladder', role: 'alert', 'aria-label': 'Budget ladder steps' },
    el('h3', {}, `⚠ The budget ladder took ${steps.length} step${steps.length === 1 ? '' : 's'} to fit`),
    el('ol', {}, ...steps.map((s) => el('li', {}, el('span', { class: 'source' }, s.source), ` — ${s.reason}${s.requestBefore !== undefined ? ` (request ${fmt(s.requestBefore)} → ${fmt(s.requestAfter)})` : ''}`))),
  );
}

function cacheLine(p: PanelPreview): HTMLElement | undefined {
  const c = p.details?.cache;
  if (!c) return undefined;
  const state = c.changed === undefined ? 'first request' : c.changed ? 'changed: the provider cache will miss' : 'same as the previous request';
  return el('p', { class: 'note', id: 'cache-status' }, `Cache prefix: ${fmt(c.prefixTokens)} tokens, ${state}`);
}

export function budget(p: PanelPreview): HTMLElement {
  return el('section', { class: 'budget' }, head(p), bar(p), legend(p), cacheLine(p));
}
