/**
 * Sharing the tool-results zone among the outputs of one call (the budget follows the evidence). Outputs
 * without evidence get a glance first (head and tail, `GLANCE_TOKENS` at most); the rest of the zone goes to the
 * outputs with evidence in proportion to their evidence weight times their priority, each capped by what it
 * needs (its whole text when that is known); what they leave goes to the outputs without evidence, by priority.
 */

export const GLANCE_TOKENS = 80;

export interface ShareInput {
  /** Evidence weight × priority; 0: no evidence. */
  weight: number;
  priority: number;
  /** Tokens the output needs at most (its whole wrapped text), Infinity when unknown. */
  demand: number;
  /**
   * Tokens it needs first (a log: every template's row, log.ts templateRowsText), given to every output before any
   * gets more: a log with few templates shows them all before a log with many adds verbatim lines.
   */
  need?: number;
}

/** Water-filling: split `room` by weight, no one above its demand, what one leaves goes to the others. */
function waterFill(room: number, items: { i: number; weight: number; demand: number }[], out: number[]): number {
  let left = room;
  let open = items.filter((x) => x.weight > 0 && out[x.i] < x.demand);
  while (left > 0 && open.length > 0) {
    const total = open.reduce((n, x) => n + x.weight, 0);
    let given = 0;
    for (const x of open) {
      const add = Math.min(x.demand - out[x.i], Math.floor((left * x.weight) / total));
      out[x.i] += add;
      given += add;
    }
    left -= given;
    const next = open.filter((x) => out[x.i] < x.demand);
    if (given === 0 || next.length === open.length) break;
    open = next;
  }
  // What rounding left goes to the heaviest output still open.
  const heaviest = open.filter((x) => out[x.i] < x.demand).sort((a, b) => b.weight - a.weight)[0];
  if (heaviest && left > 0) {
    const add = Math.min(left, heaviest.demand - out[heaviest.i]);
    out[heaviest.i] += add;
    left -= add;
  }
  return left;
}

/** `floor`: what an output with evidence needs for its most important template row and its wrapper, given first. */
export function shareZone(room: number, inputs: ShareInput[], floor = 0): number[] {
  const out = inputs.map(() => 0);
  const evidence = inputs.map((x, i) => ({ i, weight: x.weight, demand: x.demand })).filter((x) => x.weight > 0);
  const none = inputs.map((x, i) => ({ i, weight: Math.max(1, x.priority), demand: x.demand })).filter((x) => inputs[x.i].weight === 0);
  let left = room;
  // Glances first, while they fit: a result with nothing to show still says what it is.
  for (const x of none) {
    const g = Math.min(GLANCE_TOKENS, x.demand, Math.floor(left / Math.max(1, none.length + evidence.length)));
    out[x.i] = g;
    left -= g;
  }
  const each = Math.min(floor, Math.floor(left / Math.max(1, evidence.length)));
  for (const x of evidence) {
    out[x.i] = Math.min(each, x.demand);
    left -= out[x.i];
  }
  // Needs first, in equal parts (max-min fair): a log with few templates shows them all, the others share the rest.
  const needs = evidence.filter((x) => inputs[x.i].need !== undefined).map((x) => ({ i: x.i, weight: 1, demand: Math.min(x.demand, Math.max(out[x.i], inputs[x.i].need ?? 0)) }));
  if (needs.length > 0) left = waterFill(left, needs, out);
  left = waterFill(left, evidence, out);
  waterFill(left, none, out);
  return out;
}

/**
 * The warning for evidence left out of the tool-results zone while the request still had room.
 * One warning per output, with the number of templates left out and what to change.
 */
export function evidenceLeftOut(trimmed: { source: string; templates?: unknown }[], freeTokens: number, cap: number): { source: string; message: string }[] {
  if (freeTokens <= 0) return [];
  const out: { source: string; message: string }[] = [];
  for (const t of trimmed) {
    const c = t.templates as { errors: number; warnings: number; kept_errors: number; kept_warnings: number } | undefined;
    if (!c) continue;
    const left = c.errors - c.kept_errors + (c.warnings - c.kept_warnings);
    if (left <= 0) continue;
    const what = [c.errors > c.kept_errors ? `${c.errors - c.kept_errors} of ${c.errors} error templates` : '', c.warnings > c.kept_warnings ? `${c.warnings - c.kept_warnings} of ${c.warnings} warning templates` : ''].filter(Boolean).join(' and ');
    out.push({
      source: t.source,
      message: `${what} left out to fit the tool-results zone (${cap} tokens) while the request had ${freeTokens} tokens free: raise zones.tool_results.max_tokens to send them`,
    });
  }
  return out;
}
