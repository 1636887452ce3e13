/** Small DOM helpers shared by the panel's panes (no innerHTML: every text is a text node). */

import { formatTokens } from '../core/format';

/** A token figure (the one formatter of every surface), or a dash when there is none. */
export const fmt = (n: number | undefined) => formatTokens(n);

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string | undefined)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) if (c !== undefined) e.append(c);
  return e;
}
