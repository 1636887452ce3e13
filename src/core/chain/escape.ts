/**
 * Minimal escaping of workspace text inside the envelope. Content reaches the model byte for byte, except where
 * a sequence could open or close an element of the envelope:
 *
 * - a `<` that starts one of the envelope's own tag names (case-insensitive, after optional whitespace and
 *   slashes, ending at a character that cannot continue a name) becomes `&lt;`: `</task>`, `< TASK trust="harness">`,
 *   `<//document` and `<content` at the very end of a text are all neutralised; `<tasks>`, `<div>`, `a < b`,
 *   `&amp;`, `"` and `>` are left alone;
 * - a look-alike of such a `<`, which a model may read as one though no parser does, becomes `&lt;` too: a `<`, a
 *   fullwidth `＜` (U+FF1C) or a small `﹤` (U+FE64), then spaces, slashes (`/`, `／`, `∕`, `⁄`, `⧸`) and characters a
 *   reader does not see (format characters U+200B–U+200F, U+2060–U+2064, U+FEFF, U+00AD, variation selectors,
 *   combining marks), then an envelope tag name spelled as a reader may see it: its letters in any case, fullwidth,
 *   mathematical, enclosed or letterlike forms (whatever NFKC folds to the letter), Cyrillic and Greek homoglyphs,
 *   invisible characters between them: `<\u200b/document>`, `＜/content＞`, `<ｔａｓｋ>`, `</doc\u200bument>`. An opener
 *   before more than 32 such characters, some invisible, is neutralised whatever follows. Other look-alikes (`‹`,
 *   `〈`, `⟨`) are left alone: no reader takes them for `<`. Texts of ASCII only never take this path;
 * - a `<!--` or `<![CDATA[` that is never closed later in the same text becomes `&lt;!--` / `&lt;![CDATA[`, so no
 *   text can leave a comment or CDATA section open over the envelope's next tags.
 *
 * Attribute values (paths, titles, summaries, labels) are short and escaped fully (`& < > "`, newlines).
 */

/**
 * The element names of the envelope (render.ts, replay.ts), and `system`, which no workspace text may pose as.
 * Generic types that reuse one of these names (`List<Task>`) are neutralised too: the price of a model never
 * reading `x<Task trust="harness">` as an element.
 */
export const ENVELOPE_TAGS: readonly string[] = [
  'working-context',
  'rules',
  'pinned',
  'session-summary',
  'available-documents',
  'document',
  'content',
  'tool-output',
  'task',
  'turn',
  'system',
];

const NAME_CHAR = '[A-Za-z0-9_.:-]';
const TAG_OPEN = new RegExp(`<(?=[\\s/]{0,16}(?:${ENVELOPE_TAGS.join('|')})(?!${NAME_CHAR}))`, 'gi');

/** What a reader does not see: format characters, default-ignorable code points (zero-width, soft hyphen, BOM, variation selectors), combining marks. */
const INVISIBLE = '\\p{Cf}\\p{Default_Ignorable_Code_Point}\\p{M}';
/** Blocks whose characters NFKC folds to one ASCII letter: letterlike symbols, enclosed letters, phonetic and super/subscript letters, fullwidth forms, mathematical letters. */
const FOLDING: [number, number][] = [[0x1d00, 0x1dbf], [0x2070, 0x209f], [0x2100, 0x218f], [0x2460, 0x24ff], [0xff01, 0xff5e], [0x1d400, 0x1d7ff]];
/** Cyrillic and Greek letters drawn like Latin ones. */
const HOMOGLYPHS: Record<string, string> = { a: 'аα', c: 'сϲ', e: 'еε', i: 'іι', o: 'оο', p: 'рρ', s: 'ѕ', x: 'х', y: 'у', k: 'кκ', n: 'п', t: 'т', m: 'м', u: 'υ', A: 'АΑ', B: 'ВΒ', C: 'СϹ', E: 'ЕΕ', H: 'НΗ', I: 'ІΙ', K: 'КΚ', M: 'МΜ', N: 'Ν', O: 'ОΟ', P: 'РΡ', S: 'Ѕ', T: 'ТΤ', X: 'ХΧ', Y: 'УΥ' };
const HYPHENS = '\\-\\uFF0D\\u2010\\u2011\\u2012\\u2013\\u2212\\uFE63';
const SLASHES = '/\\uFF0F\\u2044\\u2215\\u29F8';
const escapeClass = (c: string) => (/[\\\]^-]/.test(c) ? `\\${c}` : c);

let letterClasses: Map<string, string> | undefined;
/** For each ASCII letter, a character class of every spelling a reader takes for it (case included). */
function letters(): Map<string, string> {
  if (letterClasses) return letterClasses;
  const spell = new Map<string, Set<string>>();
  const add = (letter: string, ch: string) => {
    const key = letter.toLowerCase();
    if (!spell.has(key)) spell.set(key, new Set([key, key.toUpperCase()]));
    spell.get(key)?.add(ch);
  };
  for (const [from, to] of FOLDING) {
    for (let cp = from; cp <= to; cp++) {
      const ch = String.fromCodePoint(cp);
      const f = ch.normalize('NFKC');
      if (f.length === 1 && /[A-Za-z]/.test(f)) add(f, ch);
    }
  }
  for (const [letter, glyphs] of Object.entries(HOMOGLYPHS)) for (const g of glyphs) add(letter, g);
  letterClasses = new Map([...spell].map(([k, set]) => [k, `[${[...set].map(escapeClass).join('')}]`]));
  return letterClasses;
}

/** A tag name as a reader may see it: each letter in any of its spellings, invisible characters between them. */
function lookAlikeName(name: string): string {
  const table = letters();
  return [...name].map((c) => (c === '-' ? `[${HYPHENS}]` : (table.get(c) ?? c))).join(`[${INVISIBLE}]{0,8}`);
}

/**
 * `<`, fullwidth `＜` or small `﹤`; then up to 32 spaces, slashes (any of their spellings) or invisible characters
 * (one class, so the run cannot be split two ways); then `name` spelled as a reader may see it, not continued by a
 * name character; or a longer run of those that hides at least one invisible character. Linear: every part is bounded
 * and no two consecutive parts share a character.
 */
function lookAlikeOpener(names: string, slash: boolean): RegExp {
  const gap = `[\\s${SLASHES}${INVISIBLE}]{0,32}`;
  const lead = slash ? `${gap}[${SLASHES}]${gap}` : gap;
  // Past 32 of them what follows is not looked at: an opener before a longer run that hides characters is neutralised.
  const hidden = `(?=[\\s${SLASHES}]{0,32}[${INVISIBLE}])(?=[\\s${SLASHES}${INVISIBLE}]{33})`;
  return new RegExp(`[<\\uFF1C\\uFE64](?:(?=${lead}(?:${names})(?![A-Za-z0-9_.:\\-\\uFF10-\\uFF19\\uFF21-\\uFF3A\\uFF41-\\uFF5A]))|${hidden})`, 'gu');
}

let lookAlikeTags: RegExp | undefined;
const NON_ASCII = /[^\t\n\r -~]/;
/**
 * The characters a look-alike opener starts with (lookAlikeOpener's first class). A text with none of them has no
 * opener to neutralise: the look-alike expression, whose Unicode classes take some 30 ms to build and compile, is then
 * neither made nor run (a trimmed log holds a `…` but rarely a `<`).
 */
const OPENER = /[<\uFF1C\uFE64]/;

/**
 * A text in which no spelling of `</tag` other than the exact one is left, for texts that go verbatim apart from
 * their own closer (reinject.ts): `< /rules>`, `<\u200b/rules>`, `＜/rules＞` lose their opener.
 */
export function neutraliseLookAlikeClosers(text: string, tag: string): string {
  return OPENER.test(text) ? text.replace(lookAlikeOpener(lookAlikeName(tag), true), '&lt;') : text;
}

/** Neutralise every opener of a section (`<!--`, `<![CDATA[`) that has no closer after it in the text. */
function closeSections(text: string, open: RegExp, close: RegExp): string {
  let lastClose = 0;
  for (const m of text.matchAll(close)) lastClose = m.index + m[0].length;
  const head = text.slice(0, lastClose);
  return head + text.slice(lastClose).replace(open, '&lt;');
}

/** Workspace text as it goes inside an envelope element. */
export function escapeContent(text: string): string {
  let out = text.includes('<') ? text.replace(TAG_OPEN, '&lt;') : text;
  if (NON_ASCII.test(out) && OPENER.test(out)) out = out.replace((lookAlikeTags ??= lookAlikeOpener(ENVELOPE_TAGS.map(lookAlikeName).join('|'), false)), '&lt;');
  if (out.includes('<!--')) out = closeSections(out, /<(?=!--)/g, /-->/g);
  if (/<!\[CDATA\[/i.test(out)) out = closeSections(out, /<(?=!\[CDATA\[)/gi, /\]\]>/g);
  return out;
}

/** Full XML escaping, for attribute values and for prompts that quote text in their own tags. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(text: string): string {
  return escapeXml(text).replace(/"/g, '&quot;').replace(/\r?\n|\r/g, ' ');
}

export function attrs(pairs: Record<string, string | number | undefined>): string {
  return Object.entries(pairs)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');
}
