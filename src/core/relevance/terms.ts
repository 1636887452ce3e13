import stemmer from 'wink-porter2-stemmer';
import { splitWords, STOP_WORDS } from '../task/analyze';

/**
 * Template words of decision records (MADR's and Nygard's section headings) and of links: they say nothing about
 * what a record is about. Words a plain question uses about its subject stay searchable, even when every record
 * carries them too (`status`, `accepted`, `proposed`, `decision`, `record`, `option`, `context`, `date`): BM25's
 * document frequency already weighs a word found everywhere low, and "how should a record carry its status?" must
 * find "Add status field".
 */
const BOILERPLATE = new Set(['adr', 'consequences', 'consequence', 'outcome', 'considered', 'chosen', 'pros', 'cons', 'deciders', 'drivers', 'md', 'html', 'www', 'https', 'http', 'com']);

/** British spellings read as American ones, so `licence` finds `license` (Porter2 stems them apart). */
const SPELLING: Record<string, string> = {
  licence: 'license', licences: 'licenses', licenced: 'licensed', licencing: 'licensing',
  colour: 'color', colours: 'colors', behaviour: 'behavior', behaviours: 'behaviors', favour: 'favor', favours: 'favors',
  honour: 'honor', labour: 'labor', catalogue: 'catalog', catalogues: 'catalogs', dialogue: 'dialog', centre: 'center',
  centres: 'centers', defence: 'defense', offence: 'offense', analyse: 'analyze', analysed: 'analyzed', analysing: 'analyzing',
  organisation: 'organization', organisations: 'organizations', organise: 'organize', organised: 'organized',
  authorisation: 'authorization', authorise: 'authorize', authorised: 'authorized', initialise: 'initialize',
  initialisation: 'initialization', serialise: 'serialize', serialisation: 'serialization', optimise: 'optimize',
  optimisation: 'optimization', normalise: 'normalize', normalisation: 'normalization', recognise: 'recognize',
  standardise: 'standardize', customise: 'customize', localise: 'localize', localisation: 'localization',
  centralise: 'centralize', centralised: 'centralized', synchronise: 'synchronize', virtualisation: 'virtualization',
  containerise: 'containerize', containerised: 'containerized', modernisation: 'modernization', utilise: 'utilize',
};

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
  const s = stem(SPELLING[w] ?? w);
  // A stem of two letters from a longer word (`adding` → `ad`) would match `AD` and `ads`: such a word is its own term.
  return s.length < 3 && w.length > 3 ? w : s;
}

/** Identifier-aware tokens: `paymentMethod` → payment, method. */
export function tokenize(text: string): string[] {
  return splitWords(text);
}

/**
 * A stamp of how words become terms (stop words, boilerplate, spellings, the stemmer on sample words, the tokens of a
 * sample identifier): a kept index made under other rules is not used (persist.ts).
 */
export function termRulesStamp(): string {
  const sample = 'paymentMethods HTTPServer licences organisation running decisions ĞüçlüŞifre adding v2Api ledgers';
  const probe = tokenize(sample).map((w) => processTerm(w) ?? '-').join(' ');
  return [TERMS_VERSION, [...STOP_WORDS].join(','), [...BOILERPLATE].join(','), JSON.stringify(SPELLING), probe].join('|');
}

/** Raise when the tokenizer or `processTerm` changes in a way the sample above may not show. */
const TERMS_VERSION = 1;
