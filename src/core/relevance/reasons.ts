import { processTerm, tokenize } from './terms';

/**
 * Check a manifest reason against the file it is about: every word of `mentions a, b, c` must be in the file's text
 * by the index's own tokenisation (identifier-aware, stemmed, British spellings folded), and `applicable decision
 * (accepted)` needs a file that declares acceptance (`accepted`, or a synonym the parser reads as accepted). Returns
 * the claims checked and the ones that are not true. Pure.
 */
export function checkRelevanceReason(reason: string, fileText: string): { checked: number; wrong: string[] } {
  const wrong: string[] = [];
  let checked = 0;
  const terms = new Set(tokenize(fileText).map(processTerm).filter((t) => t !== null));
  const mentions = /.*\bmentions ((?:(?!mentions ).)+?)(?: and \d+ more)? \(rank \d+ of \d+/.exec(reason);
  for (const word of mentions ? mentions[1].split(', ') : []) {
    checked++;
    const t = processTerm(word);
    if (t === null || !terms.has(t)) wrong.push(`mentions ${word}`);
  }
  const status = /applicable decision \(([^)]+)\)/.exec(reason)?.[1];
  if (status !== undefined) {
    checked++;
    if (status === 'accepted' && !/\b(?:accepted|approved|decided|agreed|adopted)\b/i.test(fileText)) wrong.push('applicable decision (accepted)');
  }
  return { checked, wrong };
}
