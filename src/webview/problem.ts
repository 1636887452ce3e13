/* Why there is no request, at the top of the panel above the actions (whatever the tab): the message, and for a
   broken workspace file its place (file:line:column), an Open button that puts the cursor there, and the quick fix
   when the parser knows one. */
import type { PanelPreview } from '../vscode/protocol';
import { el } from './dom';
import { send } from './state';

export function problemBanner(p: PanelPreview): HTMLElement | undefined {
  if (p.status !== 'error' || !p.message) return undefined;
  const pr = p.problem;
  const section = el('section', { class: 'problem status-error', id: 'problem', role: 'alert', 'aria-label': 'Why there is no request' });
  if (!pr) {
    section.append(el('p', { class: 'message' }, p.message));
    return section;
  }
  const where = `${pr.file}:${pr.line}${pr.column ? `:${pr.column}` : ''}`;
  const open = el('button', { class: 'secondary small', id: 'problem-open', title: `Open ${where}` }, `Open ${pr.file.split('/').pop()}:${pr.line}`);
  open.addEventListener('click', () => send({ type: 'openSource', source: pr.file, line: pr.line }));
  const fix = pr.fix ? el('button', { class: 'secondary small', id: 'problem-fix', title: `Quick fix: ${pr.fix}` }, pr.fix) : undefined;
  fix?.addEventListener('click', () => send({ type: 'applyFix', file: pr.file }));
  section.append(
    el('h3', {}, 'No request: a workspace file is broken'),
    el('p', { class: 'message' }, el('span', { class: 'source', id: 'problem-where' }, where), ` ${pr.message}`),
    el('div', { class: 'item-actions', role: 'toolbar', 'aria-label': 'Fix the file' }, open, fix),
  );
  return section;
}
