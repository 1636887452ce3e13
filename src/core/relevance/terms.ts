import stemmer from 'wink-porter2-stemmer';
import { splitWords, STOP_WORDS } from '../task/analyze';

/** Words every decision record carries: they say nothing about what a record is about. */
const BOILERPLATE = new Set(['adr', 'status', 'accepted', 'proposed', 'context', 'consequences', 'consequence', 'decision', 'decisions', 'outcome', 'option', 'options', 'considered', 'chosen', 'pros', 'cons', 'date', 'deciders', 'good', 'bad', 'neutral', 'because', 'drivers', 'record', 'records', 'md', 'html', 'www', 'https', 'http', 'com']);

const cache = new Map<string, string>();

/** Porter2 stem of a lower-case word, cached. */
export function stem(word: string): string {
  let s = cache.get(word);
  if (s === undefined) {
    s = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    if (cache.size > 50_000) cache.clear();
    cache.set(word, s);
  }
  return s;
}

/** A term as the index stores it: stemmed, or `null` for stop words, boilerplate, numbers and single letters. */
export function processTerm(word: string): string | null {
  const w = word.toLowerCase();
  if (w.length < 2 || STOP_WORDS.has(w) || BOILERPLATE.has(w) || /^\d+$/.test(w)) return null;
  return stem(w);
}

/** Identifier-aware tokens: `paymentMethod` → payment, method. */
export function tokenize(text: string): string[] {
  return splitWords(text);
}
