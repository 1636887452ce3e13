import { estimateTokens, safeCut, type Tokenizer } from './tokens';

/** Pieces and characters per piece of the sample an estimate is calibrated on (`estimateBySample`). */
export const SAMPLE_PIECES = 32;
export const SAMPLE_PIECE_CHARS = 512;

/**
 * The tokens of a long text estimated from an exact count of a sample: SAMPLE_PIECES pieces spread evenly over
 * the text, each cut at safe places where there is one near (so a piece's count is its share of the whole), give the tokens per character of
 * this content in this encoding; the estimate is that ratio times the text's length. Deterministic.
 * `sampledChars`: how many characters were counted.
 */
/** A safe cut at or after `at` if one is near; else `at` itself (not inside a surrogate pair): a piece stays small. */
function cutNear(text: string, at: number): number {
  const cut = safeCut(text, at);
  if (cut - at <= SAMPLE_PIECE_CHARS / 2) return cut;
  const low = text.charCodeAt(at);
  return low >= 0xdc00 && low <= 0xdfff ? at + 1 : Math.min(at, text.length);
}

export function estimateBySample(tokenizer: Tokenizer, text: string): { tokens: number; sampledChars: number } {
  if (text.length <= SAMPLE_PIECES * SAMPLE_PIECE_CHARS * 2) return { tokens: tokenizer.count(text), sampledChars: text.length };
  let tokens = 0;
  let chars = 0;
  const stride = text.length / SAMPLE_PIECES;
  for (let k = 0; k < SAMPLE_PIECES; k++) {
    const from = k === 0 ? 0 : cutNear(text, Math.floor(k * stride));
    const to = cutNear(text, from + SAMPLE_PIECE_CHARS);
    if (to <= from) continue;
    tokens += tokenizer.count(text.slice(from, to));
    chars += to - from;
  }
  return { tokens: chars === 0 ? estimateTokens(text) : Math.round((tokens / chars) * text.length), sampledChars: chars };
}
