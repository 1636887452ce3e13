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

/** The longest string the manifest's redaction remembers: keys, kinds, statuses and paths repeat; reasons do not. */
const MEMO_MAX = 96;
/**
 * How many strings it remembers: the ones that repeat (keys, kinds, statuses, folders) come first in a manifest;
 * past them it would hold one path per document, each told once, and a map of 100 000 strings costs more to grow
 * than the scans it saves.
 */
const MEMO_SIZE = 4096;

/**
 * Redact every string of the manifest (object keys included), as `redactDeep` does, keeping its shape: what holds no
 * secret is returned as it is. Each of the first MEMO_SIZE distinct strings is scanned once per manifest: a
 * 100 000-file manifest repeats the same keys and values (`tokens`, `kind`, `document`, `documents`) in every entry,
 * and the key `tokens` alone passed the rule set's pre-check 100 000 times. The redaction of a string depends on
 * nothing but the string: the result is the one `redactDeep` gives.
 */
export function redactManifestStrings<T>(value: T): T {
  const memo = new Map<string, string>();
  const clean = new Map<string, boolean>();
  const text = (s: string): string => {
    // Long strings (reasons, which name a rank and a score) are each told once: remembering them cost more than it saved.
    if (s.length > MEMO_MAX) return redactString(s, text, clean);
    let r = memo.get(s);
    if (r === undefined) {
      r = redactString(s, text, clean);
      if (memo.size < MEMO_SIZE) memo.set(s, r);
    }
    return r;
  };
  return mapStrings(value, text);
}
