/* The tab list, after the ARIA tabs pattern: one tab stop, arrows move and select, Home and End go to the ends. */
import { el, rovingIndex } from './dom';
import { TABS, type Tab, ui } from './state';

export function tabs(setTab: (t: Tab) => void): HTMLElement {
  const list = el('div', { role: 'tablist', class: 'tabs', 'aria-label': 'Preview views' });
  TABS.forEach(([id, label], i) => {
    const t = el('button', { role: 'tab', id: `tab-${id}`, 'aria-selected': String(ui.tab === id), 'aria-controls': `pane-${id}`, tabindex: ui.tab === id ? '0' : '-1', class: 'tab' }, label);
    t.addEventListener('click', () => setTab(id));
    t.addEventListener('keydown', (e) => {
      const to = rovingIndex(e.key, i, TABS.length);
      if (to < 0) return;
      e.preventDefault();
      const next = TABS[to][0];
      setTab(next);
      document.getElementById(`tab-${next}`)?.focus();
    });
    list.append(t);
  });
  return list;
}
