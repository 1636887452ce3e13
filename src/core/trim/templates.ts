/**
 * Log templates, Drain-style (He et al., "Drain: An Online Log Parsing Approach with Fixed Depth Tree", ICWS 2017):
 * each message is masked (numbers, hex, UUIDs, IPs, host and node ids, paths, durations, quoted values become
 * `<*>`), then put in the cluster of its length and first token whose template it matches best; a word that differs
 * becomes `<*>` in the template. Memory is bounded by the number of clusters the caller allows.
 */

/**
 * Each mask, and the strings one of which every match of it holds: a message holding none of them is not searched
 * (the URL and path mask tries a scheme at every letter; most messages hold no `/`). `<*>` holds none of them, so
 * what an earlier mask put in never makes a later one apply.
 */
const MASKS: [RegExp, string, string[]][] = [
  [/"(?:[^"\\]|\\.){0,200}"|'(?:[^'\\]|\\.){0,200}'/g, '<*>', ['"', "'"]],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<*>', ['-']],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, '<*>', ['.']],
  [/\b(?:[0-9a-f]{2}:){5}[0-9a-f]{2}\b/gi, '<*>', [':']],
  [/(?:[a-z][\w+.-]*:\/\/|~?\/)[^\s"'<>,;)\]]+/gi, '<*>', ['/']],
  [/\b0x[0-9a-f]+\b/gi, '<*>', ['0x', '0X']],
  [/\b[0-9a-f]{10,}\b/gi, '<*>', []],
];

/** A token that holds a digit is a variable (ids like node-246, R02-M1-N0-C:J12-U11, blk_-1608999687919862906, 12ms). */
const HAS_DIGIT = /\d/;
const WILD = '<*>';

/** The message with its variable parts masked, as tokens. */
/** How much of a message its template is read from. */
export const TEMPLATE_CHARS = 1000;

export function maskTokens(message: string): string[] {
  // Templates are told apart by their start; a bounded prefix keeps the masks linear on a line of any length (the URL
  // and path masks backtrack over a long run without white space: a 40 KB line took 4 s).
  let m = message.length > TEMPLATE_CHARS ? message.slice(0, TEMPLATE_CHARS) : message;
  for (const [re, to, needs] of MASKS) if (needs.length === 0 || needs.some((n) => m.includes(n))) m = m.replace(re, to);
  return m
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => (HAS_DIGIT.test(t) ? maskToken(t) : t));
}

/** A dotted host name with a port, in its punctuation frame. */
const HOST_PORT = /^([([{<"']*)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+:\d{1,5}([)\]}>"',;:.]*)$/;

/** Keep a token's punctuation frame (`(x)`, `x:`, `key=x`) and mask the value. */
function maskToken(t: string): string {
  // A host and its port (`formi.baidu.com:843`, `mtalk.google.com:5228`) is an address, not a key and its value.
  if (HOST_PORT.test(t)) return t.replace(HOST_PORT, (_m, open: string, close: string) => `${open}${WILD}${close}`);
  // A code name with a number after its dot (`tcp_connection_tls_session_handle_read_error.790`, a block's id) keeps its name.
  const named = /^([A-Za-z_][A-Za-z_]{7,}\.)\d+([)\]}>"',;:]*)$/.exec(t);
  if (named) return `${named[1]}${WILD}${named[2]}`;
  const kv = /^([A-Za-z_][\w.-]*[=:])(.+)$/.exec(t);
  if (kv && !HAS_DIGIT.test(kv[1])) return kv[1] + WILD;
  const frame = /^([([{<"']*)(.*?)([)\]}>"',;:.]*)$/.exec(t);
  return frame ? `${frame[1]}${WILD}${frame[3]}` : WILD;
}

/**
 * `maskTokens` remembered: masking is a pure function of a message's first TEMPLATE_CHARS characters, the key. At
 * most `max` messages; when full it starts again empty (bounded memory, the same tokens either way). The arrays it
 * returns are its own: a caller that changes one copies it first.
 */
export class MaskMemo {
  private readonly known = new Map<string, readonly string[]>();
  constructor(readonly max = 4096) {}

  get size(): number {
    return this.known.size;
  }

  tokens(message: string): readonly string[] {
    const head = message.length > TEMPLATE_CHARS ? message.slice(0, TEMPLATE_CHARS) : message;
    let tokens = this.known.get(head);
    if (tokens === undefined) {
      if (this.known.size >= this.max) this.known.clear();
      this.known.set(head, (tokens = maskTokens(head)));
    }
    return tokens;
  }
}

export interface Cluster {
  id: number;
  tokens: string[];
}

/** Words that may never merge into `<*>`: a different level or outcome is a different template. */
const KEEP = /^(?:error|failed|failure|success|succeeded|warn|warning|denied|accepted|refused|opened|closed|invalid|valid)$/i;

/**
 * The miner. `add` returns the cluster of a message (a new one when nothing is similar enough, if `max` allows;
 * else undefined). Similarity is the share of equal tokens among equal-length templates with the same first token.
 */
export class TemplateMiner {
  private readonly byKey = new Map<string, Cluster[]>();
  readonly clusters: Cluster[] = [];
  /** Messages masked so far (a log repeats its messages); their arrays are never handed out: a new cluster owns a copy. */
  private readonly masked = new MaskMemo();
  constructor(
    private readonly max = 1000,
    private readonly similarity = 0.6,
  ) {}

  add(message: string): Cluster | undefined {
    const tokens = this.masked.tokens(message).slice();
    const key = `${tokens.length}\u0000${tokens[0] ?? ''}`;
    const list = this.byKey.get(key) ?? [];
    let best: Cluster | undefined;
    let bestScore = -1;
    for (const c of list) {
      const score = similar(c.tokens, tokens);
      if (score > bestScore) [best, bestScore] = [c, score];
    }
    if (best && bestScore >= this.similarity) {
      for (let i = 0; i < tokens.length; i++) if (best.tokens[i] !== tokens[i]) best.tokens[i] = WILD;
      return best;
    }
    if (this.clusters.length >= this.max) return undefined;
    const cluster = { id: this.clusters.length, tokens };
    this.clusters.push(cluster);
    list.push(cluster);
    this.byKey.set(key, list);
    return cluster;
  }
}

/** A plain word (letters, 3 or more, maybe a trailing punctuation mark): what a message says, not a value. */
const WORD = /^[A-Za-z][A-Za-z'-]{2,}[:,;.!?]?$/;

/**
 * The share of equal tokens; two different plain words count as two differences (in Loghub's BGL log,
 * `program interrupt: privileged instruction` and `… illegal instruction` are two templates, not one with `<*>`;
 * a variable user or host name in a longer message still merges).
 */
function similar(template: string[], tokens: string[]): number {
  if (template.length === 0) return 1;
  let same = 0;
  let words = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = template[i];
    if (t === tokens[i]) same++;
    else if (KEEP.test(t) || KEEP.test(tokens[i])) return 0;
    else if (WORD.test(t) && WORD.test(tokens[i])) words++;
  }
  return (same - words) / template.length;
}

export function templateText(c: Cluster): string {
  return c.tokens.join(' ');
}

/** A regular expression matching the lines of a template (its `<*>` parts match anything). */
export function templatePattern(template: string): RegExp {
  const parts = template.trim().split(/\s+/).map((t) =>
    t
      .split(WILD)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*?'),
  );
  return new RegExp(parts.join('\\s+'));
}
