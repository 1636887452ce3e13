/** Small DOM helpers shared by the panel's panes (no innerHTML: every text is a text node). */

/** A token figure with a space between thousands, or a dash when there is none. */
export const fmt = (n: number | undefined) => (n === undefined ? '–' : Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' '));

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string | undefined)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) if (c !== undefined) e.append(c);
  return e;
}
