/**
 * Fitting a tool's text into the budget a caller gives (`tokenizationOptions.tokenBudget`), counted with the
 * caller's own `countTokens`. Nothing is cut silently: a shortened result says what was left out and how to get it.
 */

export type Count = (text: string) => Promise<number>;

/**
 * Keep the longest head of `lines` that fits with its notice. `lines[0]` is the header (it says what the result
 * is) and is always kept; when not even the header and the notice fit, the result is the refusal alone.
 */
export async function fitLines(lines: string[], budget: number, count: Count, notice: (shown: number, total: number) => string, refusal: string): Promise<{ text: string; tokens: number; cut: boolean }> {
  const whole = lines.join('\n');
  const tokens = await count(whole);
  if (tokens <= budget) return { text: whole, tokens, cut: false };
  const body = lines.length - 1;
  const attempt = async (k: number) => {
    const text = [...lines.slice(0, 1 + k), notice(k, body)].join('\n');
    return { text, tokens: await count(text) };
  };
  let best: { text: string; tokens: number } | undefined;
  for (let lo = 0, hi = body - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    const tried = await attempt(mid);
    if (tried.tokens <= budget) {
      best = tried;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best) return { ...best, cut: true };
  return { text: refusal, tokens: await count(refusal), cut: true };
}

/** The next max_input to try when the rendered result came out over the budget: scaled down, always smaller. */
export function shrink(max: number, counted: number, budget: number): number {
  return Math.max(1, Math.min(max - 1, Math.floor((max * budget * 0.9) / Math.max(1, counted))));
}
