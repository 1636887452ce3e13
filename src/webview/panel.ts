/* The panel webview: task box, pickers, actions, budget (the whole window, ladder markers), ladder warnings, and the
   tabs (Blocks with "Not sent", Changes, Trace, Session, Answer, Compare). Talks to the host only through the typed
   protocol. Runs under a nonce CSP. */
import type { HostMessage, PanelPreview } from '../vscode/protocol';
import { blocksPane } from './blocks';
import { budget, droppedWarning, ladderWarnings } from './budget';
import { comparePane } from './compare';
import { actions, pickers, taskBox } from './controls';
import { changesPane } from './diff';
import { el, fmt } from './dom';
import { problemBanner } from './problem';
import { answerPane, sessionPane } from './session';
import { send, type Tab, ui, vscode } from './state';
import { tabs } from './tabs';
import { tracePane } from './trace';

const app = document.getElementById('app') as HTMLElement;

function setTab(tab: Tab): void {
  ui.tab = tab;
  vscode.setState({ tab });
  render();
}

function pane(p: PanelPreview): HTMLElement {
  switch (ui.tab) {
    case 'blocks':
      return blocksPane(p, () => setTab('changes'));
    case 'changes':
      return changesPane(p, ui.previous);
    case 'trace':
      return tracePane(p);
    case 'session':
      return sessionPane(p);
    case 'compare':
      return comparePane(ui.compare, ui.trusted, () => send({ type: 'compareSend' }), ui.compareStale);
    case 'answer':
      return answerPane();
  }
}

/** The task box and pickers are built once and updated in place, so typing, the caret and focus survive updates. */
const controls = el('div', { id: 'controls' });
const dynamic = el('div', { id: 'dynamic' });
app.replaceChildren(controls, dynamic);

/** Never rebuilds under the user's hands: the part holding focus is updated in place (or kept), the rest rebuilt. */
function renderControls(): void {
  const active = document.activeElement;
  const task = document.getElementById('task') as HTMLTextAreaElement | null;
  const keepTask = task && active === task;
  const oldPickers = controls.querySelector('.pickers');
  const keepPickers = oldPickers && active && oldPickers.contains(active);
  controls.replaceChildren(
    keepTask ? (task.closest('section') as HTMLElement) : taskBox(),
    keepPickers ? (oldPickers as HTMLElement) : pickers(),
    ...(ui.trusted ? [] : [el('p', { class: 'message status-warning' }, 'Restricted mode: preview works, sending needs a trusted workspace.')]),
  );
  if (keepTask && document.activeElement !== task) task.focus();
}

/** The element that last had focus, by id: a re-render puts focus back there, never on the page body. */
let lastFocus: string | undefined;
document.addEventListener('focusin', (e) => {
  const id = (e.target as HTMLElement | null)?.id;
  if (id) lastFocus = id;
});

function render(): void {
  const p = ui.preview;
  const ladder = p ? ladderWarnings(p) : undefined;
  const problem = p ? problemBanner(p) : undefined;
  const dropped = p ? droppedWarning(p) : undefined;
  // The banner is shown without its window: ask for it now (the host assembles at larger windows, once per request).
  if (dropped && p?.details?.dropped?.search !== undefined && ui.fitAsked !== p) {
    ui.fitAsked = p;
    send({ type: 'findWindow' });
  }
  dynamic.replaceChildren(...(problem ? [problem] : []), ...(dropped ? [dropped] : []), ...(ladder ? [ladder] : []), actions(), ...(p ? [budget(p), tabs(setTab), pane(p)] : [el('p', {}, 'Assembling…')]));
  const active = document.activeElement;
  // Only while the view has focus: focusing an element of an unfocused view would move the focus on its next return.
  if (lastFocus && document.hasFocus() && (!active || active === document.body)) document.getElementById(lastFocus)?.focus();
}

/**
 * When the view gets focus from outside without a click in it (the preview shortcut, Open Panel, Tab from the
 * workbench), the task box gets it, so the typing that follows is not swallowed. A click keeps its own target.
 */
let pointerAt = 0;
document.addEventListener('pointerdown', () => (pointerAt = performance.now()), true);
window.addEventListener('focus', () => {
  if (performance.now() - pointerAt > 100) document.getElementById('task')?.focus();
});

/** Run `change`, which replaces `part`: the element focused inside it gets the focus back (by its id) in the new one. */
function keepingFocus(part: HTMLElement | null, change: () => void): void {
  const focused = part?.contains(document.activeElement) ? document.activeElement?.id : undefined;
  change();
  if (focused) document.getElementById(focused)?.focus();
}

function onPreview(next: PanelPreview): void {
  const current = ui.preview;
  // A new request (not the same one re-posted) moves the current one to "previous".
  if (current && (current.status === 'ok' || current.status === 'warning') && current.trace !== next.trace) ui.previous = current;
  ui.preview = next;
  ui.busy = false;
  // A comparison made before the policy broke no longer describes what the workspace would send.
  if (next.status === 'error' && ui.compare?.status === 'done' && !ui.compareStale) ui.compareStale = next.problem ? `${next.problem.file}:${next.problem.line}: ${next.problem.message}` : next.message;
  // A stale failure does not outlive the next run the user asks for (Preview, Ctrl+Enter, another Send); a background
  // re-assembly (a settings echo, a file watcher, a re-post) leaves it where the user is looking for it.
  if (ui.answerFailed && !ui.sending && ui.previewAsked) {
    ui.previewAsked = false;
    ui.answerFailed = false;
    ui.answerNote = '';
    ui.answer = '';
  }
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
      onPreview(m.preview);
      break;
    case 'busy': {
      ui.busy = m.busy;
      // Only what the flag changes is drawn again (the actions and the progress): a table being read, its scroll and a
      // selection in it stay while an assembly starts and ends; the preview that follows redraws the rest.
      const oldActions = document.getElementById('actions');
      const oldBudget = document.getElementById('budget');
      if (!ui.preview || !oldActions || !oldBudget) break;
      const p = ui.preview;
      keepingFocus(oldActions, () => {
        oldActions.replaceWith(actions());
        oldBudget.replaceWith(budget(p));
      });
      return;
    }
    case 'dropped': {
      // The window found for the banner shown: a newer preview has its own search.
      const d = ui.preview?.details?.dropped;
      if (!ui.preview?.details || d?.search !== m.search) return;
      ui.preview.details.dropped = m.dropped;
      // Only the banner changes: the rest of the panel (a table being read, a focused button) stays as it is.
      const banner = droppedWarning(ui.preview);
      const old = document.getElementById('dropped');
      keepingFocus(old, () => (old && banner ? old.replaceWith(banner) : render()));
      return;
    }
    case 'sendStarted':
      ui.sending = true;
      ui.answer = '';
      ui.answerFailed = false;
      ui.answerFix = undefined;
      ui.answerFile = undefined;
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
      ui.compareStale = undefined;
      ui.tab = 'compare';
      break;
    case 'sendDone': {
      ui.sending = false;
      ui.previewAsked = false;
      ui.answerFailed = !!m.error;
      ui.answerFix = m.fix;
      ui.answerFile = m.file;
      const u = m.usage;
      const usage = u ? ` Input ${fmt(u.inputTokens)} tokens${u.cachedTokens !== undefined ? `, ${fmt(u.cachedTokens)} from the provider's cache` : ''}; output ${fmt(u.outputTokens)}.` : '';
      ui.answerNote = m.error ? `Failed: ${m.error}` : `${m.note ?? 'Done.'}${usage}`;
      break;
    }
  }
  render();
});

renderControls();
render();
// The view may have been focused before this script ran (the first Ctrl+Alt+C P of a window): no focus event will
// come, so the task box takes the focus now, or the typing that follows goes nowhere.
if (document.hasFocus()) document.getElementById('task')?.focus();
send({ type: 'ready' });
