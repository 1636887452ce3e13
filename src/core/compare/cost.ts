import PRICES from './prices.json';

/**
 * Cost of one call from the usage the provider reported and a dated price table kept as data (prices.json). A
 * model is priced by its longest listed prefix (`gpt-4o-2024-08-06` → `gpt-4o`, `gpt-4o-mini` stays itself); an
 * unlisted model, or a call without reported usage, has no cost rather than a guessed one.
 */

export interface Usage {
  input?: number;
  output?: number;
  /** Input tokens the provider served from its prompt cache. */
  cached?: number;
  /** OpenAI counts cached tokens inside `input`; Anthropic reports cache reads beside it (false). */
  cachedInInput?: boolean;
}

export interface Price {
  input: number;
  cached_input: number;
  output: number;
}

export interface PriceTable {
  as_of: string;
  currency: string;
  models: Record<string, Price>;
}

export const PRICE_TABLE: PriceTable = PRICES;

export function priceFor(model: string, table: PriceTable = PRICE_TABLE): { model: string; price: Price } | undefined {
  const name = model.toLowerCase();
  const match = Object.keys(table.models)
    .filter((m) => name === m || name.startsWith(`${m}-`) || name.startsWith(`${m}@`))
    .sort((a, b) => b.length - a.length)[0];
  return match ? { model: match, price: table.models[match] } : undefined;
}

/** USD for one call, or undefined when the model is not in the table or the provider reported no input/output. */
export function costOf(model: string, usage: Usage, table: PriceTable = PRICE_TABLE): number | undefined {
  const entry = priceFor(model, table);
  if (!entry || usage.input === undefined || usage.output === undefined) return undefined;
  const inside = usage.cachedInInput ?? true;
  const cached = inside ? Math.min(usage.cached ?? 0, usage.input) : (usage.cached ?? 0);
  const { price } = entry;
  return ((usage.input - (inside ? cached : 0)) * price.input + cached * price.cached_input + usage.output * price.output) / 1_000_000;
}
