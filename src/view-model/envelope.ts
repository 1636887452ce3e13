/**
 * The envelope as the budget bar draws it: every zone, the request overhead, the free room, the output reserve and
 * the margin, in that order, adding up to the model window exactly.
 */

export interface EnvelopePart {
  /** A zone name, or `overhead`, `free`, `output_reserve`, `margin`. */
  part: string;
  tokens: number;
}

export interface EnvelopeInput {
  window: number;
  output_reserve: number;
  margin: number;
  max_input: number;
  final: number;
  /** From the manifest when the chain reports it; otherwise final − Σ zones. */
  overhead?: number;
  /** From the manifest when the chain reports it; otherwise max_input − final. */
  free?: number;
}

export const ZONE_ORDER = ['protected', 'session', 'index', 'documents', 'tool_results'];

const rank = (zone: string) => (ZONE_ORDER.includes(zone) ? ZONE_ORDER.indexOf(zone) : ZONE_ORDER.length);

/** Zones in the bar's order (unknown zones last, by name), empty ones left out. */
export function orderedZones(zones: Record<string, number> | { zone: string; tokens: number }[]): EnvelopePart[] {
  const list = Array.isArray(zones) ? zones.map((z) => ({ part: z.zone, tokens: z.tokens })) : Object.entries(zones).map(([part, tokens]) => ({ part, tokens }));
  return list.filter((z) => z.tokens > 0).sort((a, b) => rank(a.part) - rank(b.part) || a.part.localeCompare(b.part));
}

/**
 * The parts of the window. Overhead is the request's own framing (roles, separators, tool schema wrapping) that no
 * zone owns. When the request is over max_input (a refusal) the free room is 0 and the parts add up to more than the
 * window by exactly the excess, which `over` reports.
 */
export function envelopeParts(budget: EnvelopeInput, zones: Record<string, number> | { zone: string; tokens: number }[]): { parts: EnvelopePart[]; over: number } {
  const z = orderedZones(zones);
  const sum = z.reduce((s, x) => s + x.tokens, 0);
  const overhead = Math.max(0, budget.overhead ?? budget.final - sum);
  const free = Math.max(0, budget.free ?? budget.max_input - budget.final);
  const parts = [...z, { part: 'overhead', tokens: overhead }, { part: 'free', tokens: free }, { part: 'output_reserve', tokens: budget.output_reserve }, { part: 'margin', tokens: budget.margin }];
  return { parts: parts.filter((p) => p.tokens > 0), over: Math.max(0, budget.final - budget.max_input) };
}
