import { redact } from '../redact/apply';
import { mapStrings } from '../redact/map-strings';

/**
 * The reasons the relevance stage and the index write for a document they leave out or list, one per document of the
 * workspace: all engine text (thresholds, budgets, ranks, scores) but the task's words (`mentions a, b, c`), which are
 * words of the task after its redaction. Only words of lower-case ASCII letters and digits are taken as such.
 */
export const ENGINE_REASON = /^(?:not in this request: )?below the (?:index|relevance) threshold \d+%(?: but its text has half of the task's words)?: (?:left out of the index: its budget of \d+ tokens was spent on documents ranked higher \(by relevance, then path\)|in the index) \(mentions (?<words>[a-z][a-z0-9]*(?:, [a-z][a-z0-9]*)*)(?: and \d+ more)? \(rank \d+ of \d+, score \d+(?:\.\d+)?\)\)$/;

/**
 * A string of the manifest, redacted. An engine reason (ENGINE_REASON) has only its task words scanned, each alone:
 * when none holds a secret it is kept as it is (the rest is the engine's own text, which holds none); otherwise, and
 * for every other string, the whole string passes the rule set.
 */
export function redactString(s: string, part: (word: string) => string = (w) => redact(w).text, clean?: Map<string, boolean>): string {
  const words = ENGINE_REASON.exec(s)?.groups?.words;
  if (words !== undefined) {
    // The same few task words end every reason: each list is scanned once per manifest.
    let kept = clean?.get(words);
    if (kept === undefined) {
      kept = words.split(', ').every((w) => part(w) === w);
      if (clean && clean.size < MEMO_SIZE) clean.set(words, kept);
    }
    if (kept) return s;
  }
  return redact(s).text;
}

/** The longest string the manifest's redaction remembers: keys, kinds, statuses, paths and short reasons. */
const MEMO_MAX = 96;
/**
 * The short strings redacted in this process, with their redaction (which depends on nothing but the string). A
 * manifest repeats the same keys and values (`tokens`, `kind`, `document`) in every entry, and a re-assembly repeats
 * the last one's paths and reasons: 900 strings at 400 documents, each scanned at every call before. A manifest
 * looks up thousands (every key of every entry), so a hit is a plain Map lookup; when full, it starts again empty (a
 * 100 000-file manifest's one-off paths pass through it, and the keys come back at once).
 */
const MEMO_SIZE = 16384;
const shortStrings = new Map<string, string>();

/**
 * Redact every string of the manifest (object keys included), as `redactDeep` does, keeping its shape: what holds no
 * secret is returned as it is. A short string is scanned once per process while it is remembered (the key `tokens`
 * alone passed the rule set's pre-check 100 000 times in a 100 000-file manifest). The result is the one
 * `redactDeep` gives.
 */
export function redactManifestStrings<T>(value: T): T {
  const clean = new Map<string, boolean>();
  const text = (s: string): string => {
    // Long strings (reasons, which name a rank and a score) are each told once: remembering them cost more than it saved.
    if (s.length > MEMO_MAX) return redactString(s, text, clean);
    let r = shortStrings.get(s);
    if (r === undefined) {
      r = redactString(s, text, clean);
      if (shortStrings.size >= MEMO_SIZE) shortStrings.clear();
      shortStrings.set(s, r);
    }
    return r;
  };
  return mapStrings(value, text);
}
