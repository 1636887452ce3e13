/* The panel webview: task box, pickers, preview (budget bar by zone, ordered blocks, warnings), send, trace,
   and the compaction preview. Talks to the host only through the typed protocol. Runs under a nonce CSP. */
import { el, fmt } from './dom';
import type { HostMessage, PanelCompare, PanelMessage, PanelPreview, PanelSettings } from '../vscode/protocol';
import { comparePane } from './compare';

declare function acquireVsCodeApi(): { postMessage(m: PanelMessage): void; getState(): unknown; setState(s: unknown): void };

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
const send = (m: PanelMessage) => vscode.postMessage(m);

type Tab = 'blocks' | 'trace' | 'session' | 'answer' | 'compare';
const ui = {
  settings: { provider: 'dry-run', model: '', policyPath: '' } as PanelSettings,
  providers: [] as string[],
  policies: [] as string[],
  trusted: true,
  task: '',
  preview: undefined as PanelPreview | undefined,
  busy: false,
  sending: false,
  answer: '',
  answerNote: '',
  compare: undefined as PanelCompare | undefined,
  tab: ((vscode.getState() as { tab?: Tab } | undefined)?.tab ?? 'blocks') as Tab,
  /** Blocks whose text is expanded, kept across re-renders. */
  open: new Set<string>(),
};

function taskBox(): HTMLElement {
  const area = el('textarea', { id: 'task', rows: '4', placeholder: 'Describe the task, or give a task file path (e.g. ticket.md). Ctrl+Enter previews.', 'aria-label': 'Task' });
  area.value = ui.task;
  area.addEventListener('input', () => {
    ui.task = area.value;
  });
  area.addEventListener('change', () => send({ type: 'setTask', task: area.value }));
  area.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      send({ type: 'preview', task: ui.task });
    }
  });
  return el('section', { class: 'task' }, el('label', { for: 'task' }, 'Task'), area);
}

function select(id: string, label: string, options: string[], value: string, onChange: (v: string) => void): HTMLElement {
  const s = el('select', { id, 'aria-label': label });
  for (const o of options) {
    const opt = el('option', { value: o }, o);
    if (o === value) opt.selected = true;
    s.append(opt);
  }
  s.addEventListener('change', () => onChange(s.value));
  return el('div', { class: 'field' }, el('label', { for: id }, label), s);
}

function pickers(): HTMLElement {
  const model = el('input', { id: 'model', type: 'text', value: ui.settings.model, 'aria-label': 'Model', spellcheck: 'false' });
  model.addEventListener('change', () => send({ type: 'setModel', model: model.value.trim() }));
  const policies = ui.policies.includes(ui.settings.policyPath) ? ui.policies : [ui.settings.policyPath, ...ui.policies];
  return el(
    'section',
    { class: 'pickers' },
    select('provider', 'Provider', ui.providers, ui.settings.provider, (v) => send({ type: 'setProvider', provider: v })),
    el('div', { class: 'field' }, el('label', { for: 'model' }, 'Model'), model),
    select('policy', 'Policy', policies, ui.settings.policyPath, (v) => send({ type: 'setPolicy', policyPath: v })),
  );
}

function button(id: string, label: string, onClick: () => void, opts: { disabled?: boolean; secondary?: boolean; title?: string } = {}): HTMLButtonElement {
  const b = el('button', { id, class: opts.secondary ? 'secondary' : 'primary', title: opts.title ?? label });
  b.textContent = label;
  b.disabled = !!opts.disabled;
  b.addEventListener('click', onClick);
  return b;
}

function actions(): HTMLElement {
  const refused = ui.preview?.status === 'refused' || ui.preview?.status === 'error';
  const sendTitle = !ui.trusted ? 'Sending needs a trusted workspace' : refused ? 'The request would be refused: see the preview' : 'Send the budget-checked request';
  return el(
    'section',
    { class: 'actions' },
    button('preview-btn', ui.busy ? 'Assembling…' : 'Preview', () => send({ type: 'preview', task: ui.task }), { disabled: ui.busy, title: 'Preview the request (Ctrl+Enter)' }),
    ui.sending
      ? button('cancel-btn', 'Cancel', () => send({ type: 'cancel' }), { secondary: true })
      : button('send-btn', 'Send', () => send({ type: 'send', task: ui.task }), { disabled: !ui.trusted || refused || ui.busy, title: sendTitle }),
    button('copy-btn', 'Copy request', () => send({ type: 'copyRequest' }), { secondary: true, disabled: !ui.preview?.final }),
    button('export-btn', 'Export…', () => send({ type: 'exportRequest' }), { secondary: true, disabled: !ui.preview?.final }),
  );
}

const ZONE_ORDER = ['protected', 'session', 'index', 'documents', 'tool_results'];

function budget(p: PanelPreview): HTMLElement {
  const max = p.maxInput ?? 1;
  const pct = p.final !== undefined ? Math.round((p.final / max) * 100) : 0;
  const head = el('div', { class: `budget-head status-${p.status}`, id: 'budget-text', role: 'status', 'aria-live': 'polite' }, `${fmt(p.final)} / ${fmt(p.maxInput)} tokens (${pct} %)${p.status === 'refused' ? ' — refused' : p.status === 'warning' ? ' — close to the limit' : ''}`);
  const bar = el('div', { class: 'bar', role: 'img', 'aria-label': `Budget by zone: ${p.zones.map((z) => `${z.zone} ${z.tokens}`).join(', ')}` });
  const zones = [...p.zones].sort((a, b) => ZONE_ORDER.indexOf(a.zone) - ZONE_ORDER.indexOf(b.zone)).filter((z) => z.tokens > 0);
  for (const z of zones) {
    const seg = el('span', { class: `seg zone-${z.zone}`, title: `${z.zone}: ${fmt(z.tokens)} tokens` });
    // CSSOM, not a style attribute: the CSP allows no inline styles.
    seg.style.width = `${Math.min(100, (z.tokens / max) * 100)}%`;
    bar.append(seg);
  }
  const legend = el('ul', { class: 'legend' }, ...zones.map((z) => el('li', {}, el('span', { class: `swatch zone-${z.zone}` }), `${z.zone.replace('_', ' ')} ${fmt(z.tokens)}`)));
  return el('section', { class: 'budget' }, head, bar, legend);
}

function tabs(): HTMLElement {
  const names: [Tab, string][] = [['blocks', 'Blocks'], ['trace', 'Trace'], ['session', 'Session'], ['answer', 'Answer'], ['compare', 'Compare']];
  const list = el('div', { role: 'tablist', class: 'tabs', 'aria-label': 'Preview views' });
  names.forEach(([id, label], i) => {
    const t = el('button', { role: 'tab', id: `tab-${id}`, 'aria-selected': String(ui.tab === id), 'aria-controls': `pane-${id}`, tabindex: ui.tab === id ? '0' : '-1', class: 'tab' }, label);
    t.addEventListener('click', () => setTab(id));
    t.addEventListener('keydown', (e) => {
      const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!d) return;
      const next = names[(i + d + names.length) % names.length][0];
      setTab(next);
      document.getElementById(`tab-${next}`)?.focus();
    });
    list.append(t);
  });
  return list;
}

function setTab(tab: Tab): void {
  ui.tab = tab;
  vscode.setState({ tab });
  render();
}

function blocksPane(p: PanelPreview): HTMLElement {
  const pane = el('div', { role: 'tabpanel', id: 'pane-blocks', 'aria-labelledby': 'tab-blocks' });
  if (p.message && p.status !== 'ok' && p.status !== 'warning') pane.append(el('p', { class: `message status-${p.status}` }, p.message));
  if (p.signals?.length) pane.append(el('details', { class: 'signals' }, el('summary', {}, 'Task signals'), el('ul', {}, ...p.signals.map((s) => el('li', {}, s)))));
  const list = el('ol', { class: 'blocks' });
  for (const [i, b] of p.blocks.entries()) {
    const src = el('a', { href: '#', class: 'source', title: `Open ${b.source}`, id: `src-${i}` }, b.source);
    src.addEventListener('click', (e) => {
      e.preventDefault();
      send({ type: 'openSource', source: b.source });
    });
    const summary = el('summary', { id: `sum-${i}` }, el('span', { class: `kind zone-${b.zone}` }, b.kind), src, el('span', { class: 'tokens' }, `${fmt(b.tokens)} tok`));
    const details = el('details', { class: 'block' }, summary, el('p', { class: 'reason' }, b.reason), el('pre', { class: 'text' }, b.text || '(text not shown)'));
    details.open = ui.open.has(b.id);
    details.addEventListener('toggle', () => (details.open ? ui.open.add(b.id) : ui.open.delete(b.id)));
    list.append(el('li', {}, details));
  }
  pane.append(list);
  if (p.warnings.length) pane.append(el('h3', {}, 'Warnings'), el('ul', { class: 'warnings' }, ...p.warnings.map((w) => el('li', {}, w))));
  return pane;
}

function tracePane(p: PanelPreview): HTMLElement {
  return el('div', { role: 'tabpanel', id: 'pane-trace', 'aria-labelledby': 'tab-trace' }, el('pre', { class: 'trace', tabindex: '0' }, p.trace || 'No trace yet.'));
}

function sessionPane(p: PanelPreview): HTMLElement {
  const pane = el('div', { role: 'tabpanel', id: 'pane-session', 'aria-labelledby': 'tab-session' });
  if (p.session) pane.append(el('p', {}, `${p.session.stored} events stored · ${p.session.kept_raw} kept raw · ${p.session.compacted} compacted · ${p.session.omitted} omitted`));
  if (p.compaction) {
    const c = p.compaction;
    pane.append(
      el('h3', {}, 'Compaction preview'),
      el('p', {}, `${c.events} events (${c.range}) folded: ${fmt(c.tokensBefore)} → ${fmt(c.tokensAfter)} tokens. ${c.label}.`),
      el('pre', { class: 'text', tabindex: '0' }, c.summary),
    );
  } else pane.append(el('p', {}, 'Nothing compacted for this request.'));
  pane.append(
    el(
      'div',
      { class: 'actions' },
      button('compact-btn', 'Compact now', () => send({ type: 'session', action: 'compact' }), { secondary: true, title: 'Store a fresh summary of the older events' }),
      button('edit-summary-btn', 'Edit summary…', () => send({ type: 'session', action: 'edit' }), { secondary: true, disabled: !p.compaction }),
      button('undo-summary-btn', 'Undo summary', () => send({ type: 'session', action: 'undo' }), { secondary: true, title: 'Undo the active stored summary' }),
    ),
  );
  return pane;
}

function answerPane(): HTMLElement {
  return el(
    'div',
    { role: 'tabpanel', id: 'pane-answer', 'aria-labelledby': 'tab-answer' },
    ui.answerNote ? el('p', { class: 'note' }, ui.answerNote) : undefined,
    el('pre', { class: 'answer', id: 'answer', tabindex: '0' }, ui.answer || (ui.sending ? '…' : 'Nothing sent yet.')),
  );
}

/** The task box and pickers are built once and updated in place, so typing, the caret and focus survive updates. */
const controls = el('div', { id: 'controls' });
const dynamic = el('div', { id: 'dynamic' });
app.replaceChildren(controls, dynamic);

function renderControls(): void {
  const active = document.activeElement;
  if (active && controls.contains(active)) return; // never rebuild under the user's hands
  controls.replaceChildren(
    taskBox(),
    pickers(),
    ...(ui.trusted ? [] : [el('p', { class: 'message status-warning' }, 'Restricted mode: preview works, sending needs a trusted workspace.')]),
  );
}

function render(): void {
  const focused = document.activeElement?.id;
  const p = ui.preview;
  dynamic.replaceChildren(
    actions(),
    ...(p ? [budget(p), tabs(), ui.tab === 'blocks' ? blocksPane(p) : ui.tab === 'trace' ? tracePane(p) : ui.tab === 'session' ? sessionPane(p) : ui.tab === 'compare' ? comparePane(ui.compare, ui.trusted, () => send({ type: 'compareSend' })) : answerPane()] : [el('p', {}, 'Assembling…')]),
  );
  if (focused && !controls.contains(document.activeElement)) document.getElementById(focused)?.focus();
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  switch (m.type) {
    case 'init':
      ui.settings = m.settings;
      ui.providers = m.providers;
      ui.policies = m.policies;
      ui.trusted = m.trusted;
      if (!ui.task) ui.task = m.task;
      renderControls();
      break;
    case 'preview':
      ui.preview = m.preview;
      ui.busy = false;
      break;
    case 'busy':
      ui.busy = m.busy;
      break;
    case 'sendStarted':
      ui.sending = true;
      ui.answer = '';
      ui.answerNote = `Sending to ${m.provider} (${m.model})…`;
      ui.tab = 'answer';
      break;
    case 'sendDelta': {
      ui.answer += m.text;
      const pre = document.getElementById('answer');
      if (pre && ui.tab === 'answer') {
        pre.textContent = ui.answer;
        return;
      }
      break;
    }
    case 'compare':
      ui.compare = m.compare;
      ui.tab = 'compare';
      break;
    case 'sendDone':
      ui.sending = false;
      ui.answerNote = m.error ? `Failed: ${m.error}` : (m.note ?? 'Done.');
      break;
  }
  render();
});

renderControls();
render();
send({ type: 'ready' });
