import { splitWords } from './words';

export { splitWords };

/**
 * What a task says, whatever its form (a task file, pasted text, a short question): the paths and file names it
 * mentions, identifiers (CamelCase, snake_case, dotted names, error codes), quoted error messages, ADR references and
 * the plain words the ranking uses. Pure and extractive: the same text always gives the same signals.
 */
export interface TaskSignals {
  /** Paths and file names as written (`src/app/Foo.java`, `ticket.md`). */
  paths: string[];
  /** CamelCase, snake_case, dotted names, code spans. */
  identifiers: string[];
  /** Error and ticket codes: `HTTP 400`, `E1234`, `ORA-00942`, `PAY-1423`. */
  codes: string[];
  /** Quoted messages (`"paymentMethod is required"`). */
  quoted: string[];
  /** ADR references as numbers (`ADR-12`, `ADR 0007`, `decision 7`) and slugs (`0007-use-kafka`). */
  adrs: { text: string; number?: number; slug?: string }[];
  /** Lower-case words worth matching (stop words removed), in order of first appearance. */
  words: string[];
}

const FILE_EXT = /\.(?:[a-z]{1,4}|json|yaml|toml|proto|scala|swift|kts|gradle|lock|tsx|jsx|java|mdx)$/i;
const PATH = /(?:^|[\s`'"([<])((?:\.{0,2}\/)?(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z][\w]{0,9})(?=$|[\s`'")\]>,;:!?]|\.(?:\s|$))/gm;
const IDENT = /\b(?:[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z]{2,}[a-z][A-Za-z0-9]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+(?:\(\))?)\b/g;
const CODE = /\b(?:[A-Z][A-Z0-9]{1,9}-\d{1,6}|[A-Z]{1,4}\d{3,6}|(?:HTTP|http)\s?[1-5]\d\d)\b/g;
const ADR = /\b(?:ADR|adr|decision(?: record)?|Decision(?: record)?)[-_ #]?0*(\d{1,5})\b/g;
const ADR_SLUG = /\b(\d{4}|\d{8})-([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b/g;

export const STOP_WORDS = new Set(
  ('a about above after again against all also am an and any are as at be because been before being below between both but by can cannot could ' +
    'did do does doing down during each few for from further get gets got had has have having he her here hers how i if in into is it its itself ' +
    'just let like may me might more most must my no nor not now of off on once only or other our ours out over own same she should so some such ' +
    'than that the their theirs them then there these they this those through to too under until up us very was we were what when where which while ' +
    'who whom why will with would you your yours since yet still already one two new see using use used via per etc e g ie eg vs ok please need needs ' +
    'want wants make makes made way well back same sure thing things something anything nothing every ever never always sometimes ' +
    'look looks find try tried something else fix fixed fixing').split(' '),
);
// Not stop words: what a task can be about. `status`, `record`, `decision`, `option`, `time`, `day`, `week`, `help`, `task`, `issue`, `ticket`, `bug`, `problem`, `question` name subjects (a status field, a 4-day week, help
// scripts, a bug tracker); the index's document frequency weighs them where they are common.

/** How much of a task is analysed: a task longer than this is a document, and its head says what it is about. */
export const MAX_ANALYZED_CHARS = 100_000;

/** Analyse a task's text. The front matter, if any, is the caller's business: pass the body. */
export function analyzeTask(input: string): TaskSignals {
  const text = input.length > MAX_ANALYZED_CHARS ? input.slice(0, MAX_ANALYZED_CHARS) : input;
  const paths = unique([...text.matchAll(PATH)].map((m) => m[1].replace(/^\.\//, '')).filter((p) => FILE_EXT.test(p) && /\.[A-Za-z][A-Za-z0-9]+$/.test(p) && !/^v?\d/.test(p)));
  const pathSet = new Set(paths);
  const codeSpans = [...text.matchAll(/`([^`\n]{1,80})`/g)].map((m) => m[1].trim()).filter((s) => /^[A-Za-z_][\w.]*(\(\))?$/.test(s) && !pathSet.has(s));
  const identifiers = unique([...[...text.matchAll(IDENT)].map((m) => m[0]), ...codeSpans].filter((s) => !pathSet.has(s) && !/^(e\.g|i\.e)\b/i.test(s) && !FILE_EXT.test(s)));
  const codes = unique([...text.matchAll(CODE)].map((m) => m[0].replace(/^http\s?/i, 'HTTP ')));
  const quoted = unique([...text.matchAll(/"([^"\n]{6,200})"|“([^”\n]{6,200})”/g)].map((m) => (m[1] ?? m[2]).trim()).filter((q) => /\s/.test(q) && !/^[{[]/.test(q)));
  const adrs: TaskSignals['adrs'] = [];
  for (const m of text.matchAll(ADR)) adrs.push({ text: m[0], number: Number(m[1]) });
  for (const m of text.matchAll(ADR_SLUG)) adrs.push({ text: m[0], slug: m[0], number: m[1].length === 4 ? Number(m[1]) : undefined });
  return { paths, identifiers, codes, quoted, adrs: uniqueBy(adrs, (a) => a.text.toLowerCase()), words: wordsOf(text) };
}

/** Identifier-aware words: `paymentMethod` → payment, method; `PAYMENT_METHOD` → payment, method; stop words dropped. */
export function wordsOf(text: string): string[] {
  return unique(splitWords(text).filter((w) => w.length > 1 && !STOP_WORDS.has(w) && !/^\d+$/.test(w)));
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

function uniqueBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => !seen.has(key(t)) && !!seen.add(key(t)));
}
