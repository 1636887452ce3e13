/**
 * Token estimates before anything is counted (no rank table is loaded): what the Index, the Pinned view and the
 * pin-size prompt show with a `~`. The chain counts exactly (tokens.ts) before anything is placed or sent.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.6);
}

export function estimateTokensFromBytes(bytes: number): number {
  return Math.ceil(bytes / 3.6);
}
