/**
 * Token estimates before anything is counted (no rank table is loaded): what the Index, the Pinned view and the
 * pin-size prompt show with a `~`. The chain counts exactly (tokens.ts, chain/placement.ts) before anything is
 * placed or sent; an estimate never decides what goes in a request.
 *
 * Calibrated per encoding and content type, never one fixed ratio. Characters per token, measured with js-tiktoken
 * (counts equal to the reference tiktoken) on this repository's own texts, 1 December 2026:
 *
 * | content | corpus                                                                  | o200k_base | cl100k_base |
 * |---------|-------------------------------------------------------------------------|-----------:|------------:|
 * | prose   | 74 Markdown documents and ADRs (test/fixtures/repos, the example's docs) |      4.217 |       4.189 |
 * | code    | 145 TypeScript files of src/core (first 300 000 characters)              |      3.856 |       3.875 |
 * | logs    | the example's application.log (first 300 000 characters)                 |      2.489 |       2.489 |
 * | JSON    | 32 .json fixtures 3.521 / 3.504; JSON Lines (sessions) 3.022 / 3.015      |      3.2   |       3.2   |
 * | CJK     | Chinese 1.345 / 1.040, Japanese 1.492 / 1.034, Korean 1.815 / 1.181       |      1.35  |       1.04  |
 *
 * (The bench's word-list prose runs about 6 characters per token: short common words, one token each. Real
 * documents, with their headings, lists, code spans and paths, run about 4.2.) test/unit/estimate.test.ts measures
 * the same corpora again and holds each estimate within 12 % of the exact count. In a mixed text, CJK characters are
 * estimated at the CJK ratio and the rest at the ratio of the text's type.
 */

export type ContentType = 'prose' | 'code' | 'logs' | 'json';
export type EstimateEncoding = 'o200k_base' | 'cl100k_base';

/** Characters per token, by encoding and content type; `cjk` applies to CJK characters in any text. */
export const CHARS_PER_TOKEN: Record<EstimateEncoding, Record<ContentType | 'cjk', number>> = {
  o200k_base: { prose: 4.2, code: 3.85, logs: 2.5, json: 3.2, cjk: 1.35 },
  cl100k_base: { prose: 4.2, code: 3.85, logs: 2.5, json: 3.2, cjk: 1.04 },
};

/** How much of a text the type is read from (its start): enough lines to tell, cheap on a large file. */
const SAMPLE_CHARS = 4096;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
/** A line that starts like a log line, tried at each line's start (sticky; the leading blanks cannot cross a line break). */
const LOG_LINE = /[^\S\n]*\[?(?:\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}|\d{2}\/\w{3}\/\d{4}|[A-Z][a-z]{2} +\d{1,2} \d{2}:|(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\b)/y;

/** Content types of the texts seen last (a document's text is the same string from one assembly to the next). */
const TYPES = new Map<string, ContentType>();
const TYPES_MAX = 2048;

/** The content type of a text, read from its start: JSON, log lines, code (by its punctuation), else prose. */
export function contentTypeOf(text: string): ContentType {
  // Short texts cost less to read than to look up; long ones are not worth holding on to.
  if (text.length < 512 || text.length > 256 * 1024) return readContentType(text);
  let type = TYPES.get(text);
  if (type === undefined) {
    type = readContentType(text);
    if (TYPES.size >= TYPES_MAX) TYPES.delete(TYPES.keys().next().value as string);
    TYPES.set(text, type);
  }
  return type;
}

/**
 * One pass over the sample, no line array: whitespace (JavaScript's `\s`), code punctuation, and per non-blank line
 * whether it starts like a log line. The same answer as splitting the sample into lines and counting with regular
 * expressions (test/unit/estimate.test.ts holds the two equal), at a tenth of the cost on a short note, which a
 * 100 000-file preview reads 100 000 times.
 */
function readContentType(text: string): ContentType {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const head = sample.trimStart();
  if (head.startsWith('{') || head.startsWith('[{') || head.startsWith('[\n') || head.startsWith('[ ')) return 'json';
  let lines = 0;
  let logLines = 0;
  let spaces = 0;
  let code = 0;
  let start = 0;
  let blank = true;
  const n = sample.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? sample.charCodeAt(i) : 10;
    const kind = c < 128 ? ASCII[c] : isSpace(c) ? SPACE : OTHER;
    if (kind === OTHER) blank = false;
    else if (kind === CODE) {
      blank = false;
      code++;
    } else if (kind === SPACE) spaces++;
    else {
      if (i < n) spaces++;
      if (!blank) {
        lines++;
        LOG_LINE.lastIndex = start;
        if (LOG_LINE.test(sample)) logLines++;
      }
      start = i + 1;
      blank = true;
    }
  }
  if (lines > 0 && logLines / lines >= 0.3) return 'logs';
  const visible = n - spaces;
  return visible > 0 && code / visible >= 0.06 ? 'code' : 'prose';
}

/** What an ASCII character is to the reading: a line break, other whitespace, code punctuation (`{}();=[]<>`), else text. */
const OTHER = 0;
const SPACE = 1;
const BREAK = 2;
const CODE = 3;
const ASCII = new Uint8Array(128);
for (const c of [9, 11, 12, 13, 32]) ASCII[c] = SPACE;
ASCII[10] = BREAK;
for (const ch of '{}();=[]<>') ASCII[ch.charCodeAt(0)] = CODE;

/** JavaScript's `\s` (what `trim` and `/\s/` take) beyond ASCII, by character code. */
function isSpace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const BY_EXTENSION: [RegExp, ContentType][] = [
  [/\.(md|markdown|mdx|txt|rst|adoc|org)$/i, 'prose'],
  [/\.(log|out|err)$/i, 'logs'],
  [/\.(json|jsonl|ndjson|geojson)$/i, 'json'],
];

/** A file's content type from its name (for a size without the text): prose, logs, JSON, else code. */
export function contentTypeOfPath(name: string): ContentType {
  return BY_EXTENSION.find(([re]) => re.test(name))?.[1] ?? 'code';
}

/** A character from U+1100 up, where the first of the CJK scripts (Hangul's jamo) starts: below it, none is CJK. */
const BEYOND_CJK_START = /[\u1100-\uffff]/;

/** CJK characters in a text; a text with none from U+1100 up is not matched at all (a match builds an array). */
function cjkIn(text: string): number {
  return BEYOND_CJK_START.test(text) ? (text.match(CJK)?.length ?? 0) : 0;
}

export function estimateTokens(text: string, encoding: EstimateEncoding = 'o200k_base'): number {
  const ratios = CHARS_PER_TOKEN[encoding];
  const cjk = text.length > SAMPLE_CHARS ? Math.round(cjkIn(text.slice(0, SAMPLE_CHARS)) * (text.length / SAMPLE_CHARS)) : cjkIn(text);
  return Math.ceil(cjk / ratios.cjk + (text.length - cjk) / ratios[contentTypeOf(text)]);
}

/**
 * Callers that do not say what the bytes are (tool-output sizes in trim, inspect and offload, outside placement)
 * keep the ratio they were written against until they pass a file name.
 */
export const UNNAMED_CHARS_PER_TOKEN = 3.6;

/**
 * A size without its text (a whole-file pin, a file on disk): bytes at the ratio of the type its name says. Multi-byte
 * characters make bytes outnumber characters, so this leans high.
 */
export function estimateTokensFromBytes(bytes: number, name?: string, encoding: EstimateEncoding = 'o200k_base'): number {
  return Math.ceil(bytes / (name ? CHARS_PER_TOKEN[encoding][contentTypeOfPath(name)] : UNNAMED_CHARS_PER_TOKEN));
}

/** The estimate's encoding for a tokenizer's: cl100k_base, or o200k_base for any other. */
export function estimateEncoding(encoding: string): EstimateEncoding {
  return encoding === 'cl100k_base' ? 'cl100k_base' : 'o200k_base';
}
