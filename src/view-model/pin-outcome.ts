/**
 * What pinning a whole file would do, from a real assembly of the same inputs with the pin (the worker's trial):
 * refused (the protected blocks over max_input, the figures the panel's refusal shows) or fits, with what the
 * request then drops or shortens to make room, against the request of now. Pure; the question is asked only when
 * the pin costs something.
 */
import { formatNumber } from './format';

/** The trial assembly, as the worker returns it (src/vscode/worker/pin-trial.ts). */
export type PinTrial =
  | { kind: 'refused'; pinTokens?: number; mandatoryTokens: number; maxInput: number; window: number }
  | { kind: 'fits'; pinTokens: number; final: number; maxInput: number; sent: { source: string; tokens: number }[] };

export interface PinOutcome {
  /** Ask before pinning: the pin is refused, or something now sent is dropped or shortened. */
  ask: boolean;
  message: string;
  /** Sources sent now that the request with the pin no longer sends, in the current request's order. */
  drops: string[];
}

/** Tokens each source sends (a pinned range `file#L3-L9` is a source of its own), in first-seen order. */
function bySource(blocks: { source: string; tokens: number }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of blocks) out.set(b.source, (out.get(b.source) ?? 0) + b.tokens);
  return out;
}

/**
 * `current`: the blocks the request of now sends (undefined when there is none: a refusal, an error, no run yet).
 * The figures are the panel's: a refusal's "over by" and the window that would fit (window + over, as the refused
 * panel says), or the request's final / max_input and each dropped block's tokens as sent now.
 */
export function pinOutcome(source: string, trial: PinTrial, current: { source: string; tokens: number }[] | undefined): PinOutcome {
  const size = trial.pinTokens !== undefined ? ` (${formatNumber(trial.pinTokens)} tokens)` : '';
  if (trial.kind === 'refused') {
    const over = Math.max(0, trial.mandatoryTokens - trial.maxInput);
    return {
      ask: true,
      drops: [],
      message:
        `Pin ${source}${size}? This pin would be refused: protected blocks ${formatNumber(trial.mandatoryTokens)} tokens, ${formatNumber(over)} over max_input ${formatNumber(trial.maxInput)}. ` +
        `Nothing can be sent until you unpin it or raise the window to ${formatNumber(trial.window + over)}.`,
    };
  }
  const before = bySource(current ?? []);
  const after = bySource(trial.sent);
  const drops: string[] = [];
  const shortened: string[] = [];
  for (const [s, tokens] of before) {
    if (s === source) continue;
    const now = after.get(s);
    if (now === undefined) drops.push(`${s} (${formatNumber(tokens)} tokens)`);
    else if (now < tokens) shortened.push(`${s} (${formatNumber(tokens)} → ${formatNumber(now)} tokens)`);
  }
  const fits = `Pin ${source}${size}? It fits: the request would be ${formatNumber(trial.final)} / ${formatNumber(trial.maxInput)} tokens`;
  if (!drops.length && !shortened.length) return { ask: false, drops, message: `${fits}; nothing else is dropped.` };
  const parts = [...(drops.length ? [`drops: ${drops.join(', ')}`] : []), ...(shortened.length ? [`shortens: ${shortened.join(', ')}`] : [])];
  return { ask: true, drops: drops.map((d) => d.replace(/ \([^)]*\)$/, '')), message: `${fits}; to make room the request ${parts.join('; and ')}.` };
}
