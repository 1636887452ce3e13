import { TextMemo } from './memo';
import { hintedLines, mayHoldSecret } from './prefilter';
import { HINT, RULES, type SecretRule } from './rules';
import { mapStrings } from './map-strings';

/**
 * The redaction pass: every rule of `rules.ts` is matched against the original text, overlaps are resolved
 * (earliest first, then longest), and each secret is replaced by `[REDACTED:rule-id]`. Line numbers are those of
 * the original text. The pass is idempotent: a placeholder matches no rule.
 */

export interface Redaction {
  rule: string;
  /** 1-based line of the original text where the secret starts. */
  line: number;
}

export interface Redacted {
  text: string;
  found: Redaction[];
}

export interface Hit {
  start: number;
  end: number;
  rule: SecretRule;
}

export const PLACEHOLDER_RE = /\[REDACTED:[a-z0-9-]+…?\]/g;

export function placeholder(rule: string): string {
  return `[REDACTED:${rule}]`;
}

/** Each rule's pattern with match indices (`d`), global or (for a rule that says where its matches start) sticky, built once. */
const INDEXED = new WeakMap<SecretRule, RegExp>();
function indexed(rule: SecretRule): RegExp {
  let re = INDEXED.get(rule);
  if (!re) {
    const flags = rule.re.flags.replace(/[dgy]/g, '');
    INDEXED.set(rule, (re = new RegExp(rule.re.source, `${flags}d${rule.starts ? 'y' : 'g'}`)));
  }
  return re;
}

/**
 * One rule's secrets in the text, in order, as its global search finds them: a match that is no secret (`accept`)
 * is searched again from the next character, since one may start inside it. A rule that says where its matches can
 * start (`starts`) is tried there alone, from the same places in the same order.
 */
export function ruleHits(text: string, rule: SecretRule): Hit[] {
  const hits: Hit[] = [];
  const re = indexed(rule);
  const starts = rule.starts?.(text);
  let k = 0;
  const next = (): RegExpExecArray | null => {
    if (!starts) return re.exec(text);
    for (const from = re.lastIndex; k < starts.length; ) {
      const at = starts[k++];
      if (at < from) continue;
      re.lastIndex = at;
      const m = re.exec(text);
      if (m) return m;
    }
    return null;
  };
  re.lastIndex = 0;
  for (let m = next(); m; m = next()) {
    const secret = m.groups?.secret ?? m[0];
    if (secret.length === 0 || (rule.accept && !rule.accept(secret, m))) {
      // Try again from the next character: a match that is not a secret may hide one that starts inside it.
      re.lastIndex = m.index + 1;
      continue;
    }
    const start = m.indices?.groups?.secret ? m.indices.groups.secret[0] : m.index;
    hits.push({ start, end: start + secret.length, rule });
  }
  return hits;
}

function hitsOf(text: string, rules: readonly SecretRule[]): Hit[] {
  const hits: Hit[] = [];
  // Each rule's pattern runs only on a text holding one of its hints (in lower case): most texts the pre-check lets
  // through hold a word like `key` or `token` and none of the vendor prefixes.
  const lower = text.toLowerCase();
  for (const rule of rules) {
    if (!rule.hint.some((h) => lower.includes(h))) continue;
    for (const h of ruleHits(text, rule)) hits.push(h);
  }
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  // A placeholder already in the text is never part of a secret: that keeps the pass idempotent.
  const placed = text.includes('[REDACTED:') ? [...text.matchAll(PLACEHOLDER_RE)].map((m) => [m.index, m.index + m[0].length]) : [];
  const kept: Hit[] = [];
  for (const h of hits) {
    if (kept.length && h.start < kept[kept.length - 1].end) continue;
    if (placed.some(([a, b]) => h.start < b && a < h.end)) continue;
    kept.push(h);
  }
  return kept;
}

/**
 * Results of the default rule set for texts of at least MEMO_MIN characters, so an unchanged block (a document,
 * a rendered wrapper, a serialized request) is scanned once per process however often it is assembled. Short
 * texts are cheaper to scan than to remember; lines streamed by `redactLines` never enter it. At most 8 M characters.
 */
export const MEMO_MIN = 256;
export const redactionMemo = new TextMemo<Redacted>(2048, 8 * 1024 * 1024);

/** Redact one text. */
export function redact(text: string, rules: readonly SecretRule[] = RULES): Redacted {
  if (rules !== RULES || text.length < MEMO_MIN) return scan(text, rules);
  const known = redactionMemo.get(text);
  if (known) return { text: known.text, found: known.found.map((f) => ({ ...f })) };
  const r = scan(text, rules);
  redactionMemo.set(text, { text: r.text, found: r.found.map((f) => ({ ...f })) });
  return r;
}

function scan(text: string, rules: readonly SecretRule[]): Redacted {
  if (text.length === 0 || (rules === RULES && !mayHoldSecret(text))) return { text, found: [] };
  const hits = hitsOf(text, rules);
  if (hits.length === 0) return { text, found: [] };
  const parts: string[] = [];
  const found: Redaction[] = [];
  let at = 0;
  let line = 1;
  let next = text.indexOf('\n');
  for (const h of hits) {
    while (next !== -1 && next < h.start) {
      line++;
      next = text.indexOf('\n', next + 1);
    }
    parts.push(text.slice(at, h.start), placeholder(h.rule.id));
    found.push({ rule: h.rule.id, line });
    at = h.end;
  }
  parts.push(text.slice(at));
  return { text: parts.join(''), found };
}

/**
 * Redact every string of a plain JSON-like value (object keys included), keeping its shape. What holds no secret is
 * returned as it is, not copied (map-strings.ts); a part that changed is new.
 */
export function redactDeep<T>(value: T, found: Redaction[] = []): T {
  return mapStrings(value, (s) => {
    const r = redact(s);
    if (r.found.length > 0) found.push(...r.found);
    return r.text;
  });
}

/** How many placeholders a text holds. */
export function countRedactions(text: string): number {
  return (text.match(PLACEHOLDER_RE) ?? []).length;
}

/** True when the text holds a secret that a rule would redact. */
export function holdsSecret(text: string): boolean {
  if (text.length >= MEMO_MIN) return redact(text).found.length > 0;
  return HINT.test(text) && hitsOf(text, RULES).length > 0;
}

/** Redact one line of a stream, as `redactLines` does for a line outside a private key block. */
export function redactLine(line: string): string {
  return line.length > 0 ? scan(line, RULES).text : line;
}

/**
 * Redact many lines, each as `redactLine` does, with one pre-check over all of them (prefilter.ts, in batches of
 * BATCH_LINES lines or BATCH_CHARS characters): the rules run only on the lines it flags. In place; returns `lines`.
 */
export function redactEach(lines: string[]): string[] {
  for (let from = 0; from < lines.length; ) {
    let to = from;
    let chars = 0;
    while (to < lines.length && to - from < BATCH_LINES && chars < BATCH_CHARS) chars += lines[to++].length;
    const batch = lines.slice(from, to);
    const flags = hintedLines(batch);
    for (let i = 0; i < batch.length; i++) if (flags[i] !== 0 && batch[i].length > 0) lines[from + i] = scan(batch[i], RULES).text;
    from = to;
  }
  return lines;
}

const KEY_BEGIN = /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
const KEY_END = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/;

/** Lines and characters per batch of the line pre-check (`hintedLines`): the read-ahead is bounded by these. */
const BATCH_LINES = 2048;
const BATCH_CHARS = 64 * 1024;

/**
 * Redact a stream of lines, for text read line by line (logs, tool output, search): each line as `redact`
 * does, and a private key block whole, from its BEGIN line to its END line. Lines are pre-checked in batches
 * (prefilter.ts): a line no secret hint flags is passed through as it is (neither a rule nor a key marker can
 * match it), so a log is searched once per batch, not once per line.
 */
export function redactLines(lines: () => Iterable<string>): () => Iterable<string> {
  return () => ({
    *[Symbol.iterator]() {
      let inKey = false;
      const batch: string[] = [];
      let chars = 0;
      function* emit(): Generator<string> {
        const flags = hintedLines(batch);
        for (let i = 0; i < batch.length; i++) {
          const line = batch[i];
          if (inKey) {
            const end = KEY_END.exec(line);
            if (end) {
              inKey = false;
              yield placeholder('private-key') + line.slice(end.index + end[0].length);
            }
            continue;
          }
          if (flags[i] === 0) {
            yield line;
            continue;
          }
          const begin = KEY_BEGIN.exec(line);
          if (begin && !KEY_END.test(line.slice(begin.index))) {
            inKey = true;
            yield line.slice(0, begin.index) + '[REDACTED:private-key…]';
            continue;
          }
          // Not through the memo: a log's lines are seen once, they would only push documents out of it.
          yield line.length > 0 ? scan(line, RULES).text : line;
        }
        batch.length = 0;
        chars = 0;
      }
      for (const line of lines()) {
        batch.push(line);
        chars += line.length;
        if (batch.length >= BATCH_LINES || chars >= BATCH_CHARS) yield* emit();
      }
      yield* emit();
    },
  });
}

/** Text with every secret taken out (not replaced by a placeholder): for analysis that must neither see a secret nor
 * treat the placeholder's words as the text's own (the task's signals, recorded in the manifest). */
export function withoutSecrets(text: string): string {
  return redact(text).text.replace(/\[REDACTED:[\w-]+\]/g, ' ');
}
