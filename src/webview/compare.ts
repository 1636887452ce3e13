/* The panel's Compare tab: variants side by side (budget bar by zone, block counts, evidence checks), the decisions
   diff with an icon and a word for every change (never colour alone), and after a send each answer with its checks. */
import { formatPercent } from '../view-model/format';
import { orderedZones } from '../view-model/envelope';
import { el, fmt } from './dom';
import type { PanelCompare, PanelCompareVariant } from '../vscode/protocol';

const CHANGE: Record<PanelCompare['diff'][number]['change'], { icon: string; word: string }> = {
  loaded: { icon: '±', word: 'Loaded by some' },
  verdict: { icon: '≠', word: 'Other verdict' },
  tokens: { icon: '~', word: 'Other size' },
};
const LOADED = ['selected', 'trimmed', 'summarized'];

function check(ok: boolean, text: string): HTMLElement {
  return el('li', { class: ok ? 'check-ok' : 'check-fail' }, el('span', { class: 'check-icon', 'aria-hidden': 'true' }, ok ? '✓' : '✗'), `${ok ? 'PASS' : 'FAIL'} ${text}`);
}

function bar(v: PanelCompareVariant): HTMLElement {
  const zones = orderedZones(v.zones).map((z) => ({ zone: z.part, tokens: z.tokens }));
  const b = el('div', { class: 'bar', role: 'img', 'aria-label': `${v.name}: ${zones.map((z) => `${z.zone} ${z.tokens}`).join(', ')}` });
  for (const z of zones) {
    const seg = el('span', { class: `seg zone-${z.zone}`, title: `${z.zone}: ${fmt(z.tokens)} tokens` });
    seg.style.width = `${Math.min(100, (z.tokens / Math.max(1, v.maxInput)) * 100)}%`;
    b.append(seg);
  }
  return b;
}

function variantCard(v: PanelCompareVariant): HTMLElement {
  const zones = orderedZones(v.zones).map((z) => ({ zone: z.part, tokens: z.tokens }));
  const failing = v.evidence.filter((x) => !x.ok).length;
  return el(
    'section',
    { class: 'variant', 'aria-label': `Variant ${v.name}` },
    el('h3', {}, v.name),
    el('p', { class: 'note' }, v.policy),
    el('div', { class: 'budget-head' }, `${fmt(v.final)} / ${fmt(v.maxInput)} tokens (${formatPercent(v.final / Math.max(1, v.maxInput))})`),
    bar(v),
    el('ul', { class: 'legend' }, ...zones.map((z) => el('li', {}, el('span', { class: `swatch zone-${z.zone}` }), `${z.zone.replace('_', ' ')} ${fmt(z.tokens)}`))),
    el('p', {}, `${v.counts.selected} selected · ${v.counts.rejected} rejected · ${v.counts.trimmed} trimmed · ${v.counts.offloaded} offloaded · ${v.counts.indexed} indexed`),
    v.evidence.length ? el('h4', {}, `Evidence checks: ${v.evidence.length - failing}/${v.evidence.length}`) : undefined,
    failing ? el('ul', { class: 'checks' }, ...v.evidence.filter((x) => !x.ok).map((x) => check(x.ok, x.text))) : undefined,
    failing < v.evidence.length
      ? el('details', {}, el('summary', {}, `${v.evidence.length - failing} passing`), el('ul', { class: 'checks' }, ...v.evidence.filter((x) => x.ok).map((x) => check(x.ok, x.text))))
      : undefined,
    ...v.runs.map((r) =>
      el(
        'div',
        { class: 'run' },
        el('h4', {}, `Answer (run ${r.run})${r.inputTokens !== undefined ? ` · ${fmt(r.inputTokens)} in / ${fmt(r.outputTokens)} out` : ''}`),
        el('pre', { class: 'answer', tabindex: '0' }, r.error ? `Failed: ${r.error}` : r.answer || '(empty answer)'),
        r.checks.length ? el('ul', { class: 'checks' }, ...r.checks.map((x) => check(x.ok, x.text))) : undefined,
      ),
    ),
  );
}

function diffTable(c: PanelCompare): HTMLElement {
  const head = el('tr', {}, el('th', { scope: 'col' }, 'Change'), el('th', { scope: 'col' }, 'Source'), ...c.variants.map((v) => el('th', { scope: 'col' }, v.name)));
  const rows = c.diff.map((e) => {
    const change = CHANGE[e.change];
    return el(
      'tr',
      { class: `change-${e.change}` },
      el('td', {}, el('span', { class: 'change-icon', 'aria-hidden': 'true' }, change.icon), ` ${change.word}`),
      el('td', { class: 'source' }, e.source),
      ...e.variants.map((d) => {
        const loaded = LOADED.includes(d.verdict);
        return el(
          'td',
          { class: loaded ? 'verdict-loaded' : 'verdict-out', title: d.reason },
          el('span', { class: 'verdict-icon', 'aria-hidden': 'true' }, loaded ? '●' : '○'),
          ` ${d.verdict.toUpperCase()}${d.tokens ? ` ${fmt(d.tokens)}` : ''}`,
          el('div', { class: 'reason' }, d.reason),
        );
      }),
    );
  });
  return el('table', { class: 'diff', id: 'compare-diff' }, el('thead', {}, head), el('tbody', {}, ...rows));
}

export function comparePane(c: PanelCompare | undefined, trusted: boolean, onSend: () => void, stale?: string): HTMLElement {
  const pane = el('div', { role: 'tabpanel', id: 'pane-compare', 'aria-labelledby': 'tab-compare' });
  if (!c) {
    pane.append(el('p', {}, 'Run "Context Control: Compare Policies…" to compare two or more policies on this task.'));
    return pane;
  }
  pane.append(el('p', { class: 'note' }, `${c.task} · ${c.model} · ${c.provider === 'dry-run' ? 'dry run: nothing sent' : `sent with ${c.provider}`}`));
  if (c.message) pane.append(el('p', { class: `message status-${c.status === 'error' ? 'error' : 'ok'}`, role: 'status' }, c.message));
  if (c.status !== 'done') return pane;
  if (stale) {
    pane.classList.add('stale');
    pane.append(el('p', { class: 'message status-error', id: 'compare-stale', role: 'alert' }, `Stale: these figures were computed before ${stale}. Fix it, then run "Compare Policies…" again.`));
  }
  const sendBtn = el('button', { id: 'compare-send-btn', class: 'secondary', title: trusted ? 'Send each variant once with the configured provider' : 'Sending needs a trusted workspace' }, 'Send variants');
  sendBtn.disabled = !trusted || !!stale;
  sendBtn.addEventListener('click', onSend);
  pane.append(el('div', { class: 'actions' }, sendBtn));
  pane.append(el('div', { class: 'variants', id: 'compare-variants' }, ...c.variants.map(variantCard)));
  pane.append(el('h3', {}, `Decisions diff: ${c.diff.length} source(s) differ, ${c.same} alike`));
  pane.append(c.diff.length ? diffTable(c) : el('p', {}, '= Every variant took the same decisions.'));
  return pane;
}
