/* The task box, the provider/model/policy pickers and the action row (Preview, Send, Copy, Export). */
import { requestBlocked, sendBlocked } from '../view-model/gates';
import { el } from './dom';
import { send, ui } from './state';

const TASK_DEBOUNCE_MS = 600;

export function taskBox(): HTMLElement {
  const area = el('textarea', { id: 'task', rows: '4', placeholder: 'Describe the task, or give a task file path (e.g. ticket.md). Ctrl+Enter previews.', 'aria-label': 'Task' });
  area.value = ui.task;
  // The host re-assembles on every change of the task, typing included (a pause of TASK_DEBOUNCE_MS), as for any input.
  let pending: ReturnType<typeof setTimeout> | undefined;
  const commit = () => {
    clearTimeout(pending);
    send({ type: 'setTask', task: area.value });
  };
  area.addEventListener('input', () => {
    ui.task = area.value;
    refreshGates();
    clearTimeout(pending);
    pending = setTimeout(commit, TASK_DEBOUNCE_MS);
  });
  area.addEventListener('change', commit);
  area.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      ui.previewAsked = true;
      send({ type: 'preview', task: ui.task });
    }
  });
  return el('section', { class: 'task' }, el('label', { for: 'task' }, 'Task'), area);
}

function select(id: string, label: string, options: string[], value: string, onChange: (v: string) => void, text: (o: string) => string = (o) => o): HTMLElement {
  const s = el('select', { id, 'aria-label': label });
  for (const o of options) {
    const opt = el('option', { value: o }, text(o));
    if (o === value) opt.selected = true;
    s.append(opt);
  }
  s.addEventListener('change', () => onChange(s.value));
  return el('div', { class: 'field' }, el('label', { for: id }, label), s);
}

export function pickers(): HTMLElement {
  const model = el('input', { id: 'model', type: 'text', value: ui.settings.model, 'aria-label': 'Model', spellcheck: 'false' });
  model.addEventListener('change', () => send({ type: 'setModel', model: model.value.trim() }));
  // The configured policy when it does not exist is the built-in defaults: said so, never shown as a file.
  const exists = ui.policies.includes(ui.settings.policyPath);
  const policies = exists ? ui.policies : [ui.settings.policyPath, ...ui.policies];
  const policyText = (o: string) => (o === ui.settings.policyPath && !exists ? 'Built-in defaults (no policy file)' : o);
  return el(
    'section',
    { class: 'pickers' },
    select('provider', 'Provider', ui.providers, ui.settings.provider, (v) => send({ type: 'setProvider', provider: v })),
    el('div', { class: 'field' }, el('label', { for: 'model' }, 'Model'), model),
    select('policy', 'Policy', policies, ui.settings.policyPath, (v) => send({ type: 'setPolicy', policyPath: v }), policyText),
  );
}

/**
 * A button. A disabled one keeps its reason in its title and, for screen readers and keyboards, in aria-disabled
 * with a described-by note: it stays focusable so focus is never dropped to the page when it turns unavailable.
 */
export function button(id: string, label: string, onClick: () => void, opts: { blocked?: string; secondary?: boolean; title?: string; className?: string } = {}): HTMLButtonElement {
  const b = el('button', { id, class: `${opts.secondary ? 'secondary' : 'primary'}${opts.className ? ` ${opts.className}` : ''}`, title: opts.blocked ?? opts.title ?? label });
  b.textContent = label;
  if (opts.blocked) b.setAttribute('aria-disabled', 'true');
  b.addEventListener('click', () => {
    if (b.getAttribute('aria-disabled') !== 'true') onClick();
  });
  return b;
}

const status = () => ui.preview?.status;

export function actions(): HTMLElement {
  const gate = { task: ui.task, taskFile: ui.preview?.details?.taskFile, status: status(), trusted: ui.trusted, busy: ui.busy };
  const sendWhy = sendBlocked(gate);
  const requestWhy = requestBlocked(gate);
  const why = sendWhy ?? requestWhy;
  return el(
    'section',
    { class: 'actions', id: 'actions' },
    button('preview-btn', ui.busy ? 'Assembling…' : 'Preview', () => {
      ui.previewAsked = true;
      send({ type: 'preview', task: ui.task });
    }, { blocked: ui.busy ? 'Assembling…' : undefined, title: 'Preview the request (Ctrl+Enter)' }),
    ui.sending
      ? button('cancel-btn', 'Cancel', () => send({ type: 'cancel' }), { secondary: true })
      : button('send-btn', 'Send', () => send({ type: 'send', task: ui.task }), { blocked: sendWhy, title: 'Send the budget-checked request' }),
    button('copy-btn', 'Copy request', () => send({ type: 'copyRequest' }), { secondary: true, blocked: requestWhy }),
    button('export-btn', 'Export…', () => send({ type: 'exportRequest' }), { secondary: true, blocked: requestWhy }),
    why ? el('p', { class: 'why', id: 'actions-why', role: 'note' }, why) : undefined,
  );
}

/** Typing a task can enable Send: update the action row in place, without a full render (focus stays in the box). */
function refreshGates(): void {
  document.getElementById('actions')?.replaceWith(actions());
}
