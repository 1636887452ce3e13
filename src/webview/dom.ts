/** Small DOM helpers shared by the panel's panes (no innerHTML: every text is a text node). */

import { formatTokens } from '../view-model/format';

/** A token figure (the one formatter of every surface), or a dash when there is none. */
export const fmt = (n: number | undefined) => formatTokens(n);

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string | undefined)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) if (c !== undefined) e.append(c);
  return e;
}

/** The roving-focus target of a key in a row of `n` items (ARIA tabs and toolbars): arrows wrap, Home and End go to the ends; -1 for any other key. */
export function rovingIndex(key: string, i: number, n: number): number {
  return key === 'ArrowRight' ? (i + 1) % n : key === 'ArrowLeft' ? (i + n - 1) % n : key === 'Home' ? 0 : key === 'End' ? n - 1 : -1;
}
