/**
 * The one number formatter of every surface (CLI, trace, trees, status bar, panel): whole numbers with a narrow
 * no-break space (U+202F) between thousands, so "4 361 / 11 000" never breaks across lines.
 */
export const THOUSANDS = '\u202f';

export function formatNumber(n: number): string {
  const r = Math.round(n);
  const digits = Math.abs(r).toString().replace(/\B(?=(\d{3})+(?!\d))/g, THOUSANDS);
  return r < 0 ? `−${digits}` : digits;
}

/** A token figure: exact once counted, marked `~` while it is only an estimate; a dash when there is none. */
export function formatTokens(n: number | undefined, exact = true): string {
  if (n === undefined || !Number.isFinite(n)) return '–';
  return `${exact ? '' : '~'}${formatNumber(n)}`;
}

/** A share as a whole percentage, capped for display at "> 999 %" so a runaway ratio never prints "15128 %". */
export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  const p = Math.round(ratio * 100);
  return p > 999 ? `>${THOUSANDS}999${THOUSANDS}%` : `${p}${THOUSANDS}%`;
}
