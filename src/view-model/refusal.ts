import { formatNumber } from './format';

/** A refusal in words: its cause (what you included, or the protected blocks alone) and the fix, with the window that would fit. */

export interface RefusalInput {
  final: number;
  maxInput: number;
  /** The model window; with max_input it gives the room held for the output and the margin. */
  window?: number;
  blocks: { source: string; kind: string; tokens: number }[];
  overrides: Record<string, 'include' | 'exclude'>;
}

export interface RefusalAdvice {
  title: string;
  fix: string;
  over: number;
  /** The smallest window that holds these blocks, the output reserve and the margin unchanged. */
  windowToFit: number;
}

export function refusalAdvice(r: RefusalInput): RefusalAdvice {
  const over = Math.max(0, r.final - r.maxInput);
  const windowToFit = (r.window ?? r.maxInput) + over;
  const included = r.blocks.filter((b) => r.overrides[b.source] === 'include').map((b) => b.source);
  const fits = `or raise the window to ${formatNumber(windowToFit)}`;
  if (included.length) {
    return {
      title: `Refused: ${included.join(', ')}, included by you, does not fit`,
      fix: `Remove the include of ${included.join(', ')} (it then competes for the budget like any document), unpin a block, ${fits}. Nothing can be sent, copied or exported until then.`,
      over,
      windowToFit,
    };
  }
  return {
    title: 'Refused: the protected blocks alone do not fit',
    fix: `Unpin a block, shorten a rule (Edit rule), take a kind out of the policy's mandatory list, ${fits}. Nothing can be sent, copied or exported until then.`,
    over,
    windowToFit,
  };
}
