/* The budget: the head figure, a bar of the whole window (zones, overhead, free room, output reserve, margin) with a
   marker for every ladder step, its legend, the ladder's warnings, and the cache prefix status. */
import { droppedBanner } from '../view-model/dropped';
import { formatPercent } from '../view-model/format';
import { small, toolbar } from './item-actions';
import { send, ui } from './state';
import { el, fmt } from './dom';
import type { PanelPreview } from '../vscode/protocol';

const LABEL: Record<string, string> = { tool_results: 'tool results', output_reserve: 'output reserve', free: 'free room' };
const label = (part: string) => LABEL[part] ?? part;

/** When the run under way started (the panel's clock), for the seconds shown beside the progress bar. */
let busySince: number | undefined;
setInterval(() => {
  const t = document.getElementById('assembling-time');
  if (t && busySince !== undefined) t.textContent = `${Math.floor((performance.now() - busySince) / 1000)} s`;
}, 1000);

/** The progress of an assembly under way: in the panel, not only in the status bar; the last figures stay beside it. */
function progress(p: PanelPreview): HTMLElement | undefined {
  if (!ui.busy) {
    busySince = undefined;
    return undefined;
  }
  busySince ??= performance.now();
  const what = p.final === undefined ? 'Assembling the request: reading the workspace, ranking and counting…' : 'Updating the request…';
  return el('div', { class: 'assembling', id: 'assembling', role: 'status', 'aria-live': 'polite' }, el('progress', { 'aria-label': 'Assembling the request' }), el('span', {}, `${what} `), el('span', { id: 'assembling-time' }, `${Math.floor((performance.now() - busySince) / 1000)} s`));
}

function head(p: PanelPreview): HTMLElement {
  if (p.final === undefined && p.status !== 'refused') {
    // No figures yet: say so in words, never "– / – tokens".
    return el('div', { class: `budget-head status-${p.status}`, id: 'budget-text', role: 'status', 'aria-live': 'polite' }, ui.busy ? 'No figures yet: the first assembly is under way.' : 'No request yet.');
  }
  const ratio = p.final !== undefined && p.maxInput ? p.final / p.maxInput : NaN;
  const over = p.details?.envelope?.over ?? 0;
  const tail = p.status === 'refused' ? ` — refused: over by ${fmt(over)}` : p.status === 'warning' ? ' — close to the limit' : '';
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
  if (env && env.over > 0 && p.maxInput) {
    // Over-full: the part of the request beyond max_input, hatched, after a mark where max_input ends.
    b.classList.add('over-full');
    const over = el('span', { class: 'seg-over', id: 'budget-over', title: `over max_input by ${fmt(env.over)} tokens (${formatPercent((p.final ?? 0) / p.maxInput)} of max_input)` });
    over.style.left = `${(p.maxInput / whole) * 100}%`;
    over.style.width = `${(env.over / whole) * 100}%`;
    const limit = el('span', { class: 'limit-mark', title: `max_input ${fmt(p.maxInput)} tokens` });
    limit.style.left = `${(p.maxInput / whole) * 100}%`;
    b.append(over, limit);
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

/**
 * The key evidence the budget dropped, at the top of the panel: what, and the window that would hold it (found by
 * assembling for real, asked for when the banner is first drawn: panel.ts), with Open policy: window; each item is
 * in the list below under "Dropped to fit the budget".
 */
export function droppedWarning(p: PanelPreview): HTMLElement | undefined {
  const d = p.details?.dropped;
  if (!d?.items.length || p.status === 'refused') return undefined;
  const raise = small('Open policy: window', `Open the policy line of the envelope's window (now ${fmt(d.window)})`, () => send({ type: 'blockAction', action: 'policy', source: 'builtin:envelope' }), 'act-policy', 'dropped:window');
  return el(
    'section',
    { class: 'dropped', id: 'dropped', role: 'alert', 'aria-label': 'Evidence dropped to fit' },
    el('h3', {}, `⚠ ${droppedBanner(d.items, d.windowToFit)}`),
    el(
      'p',
      { class: 'note', id: 'dropped-note', ...(d.search !== undefined ? { role: 'status', 'aria-busy': 'true' } : {}) },
      d.search !== undefined
        ? `Finding the window that holds all of it (now ${fmt(d.window)}): assembling the same request at larger windows…`
        : d.windowToFit !== undefined
          ? `At a window of ${fmt(d.windowToFit)} tokens (now ${fmt(d.window)}) the chain sends all of it: checked by assembling the same request again.`
          : `No larger window was checked in time; the list below has each item's figure.`,
    ),
    toolbar('Fix what was dropped', [raise]),
  );
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
  return el('section', { class: 'budget', id: 'budget' }, progress(p), head(p), bar(p), legend(p), cacheLine(p));
}
