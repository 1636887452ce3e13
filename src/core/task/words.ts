/**
 * Identifier-aware words of a text, lower-cased, in one pass: `paymentMethod` → payment, method; `HTTPServer` →
 * http, server; `v2Api` → v2, api. A word is a run of letters and digits (Unicode `\p{L}` and `\p{N}`, by code
 * point); a run is cut before an upper-case letter that follows a lower-case letter or a digit, and before an
 * upper-case letter that follows another one and precedes a lower-case one. Exactly the words of the former
 * regex form (a split on `[^\p{L}\p{N}]+`, then `([\p{Ll}\p{N}])(\p{Lu})` and `(\p{Lu})(\p{Lu}\p{Ll})` → `$1 $2`,
 * each part lower-cased), which the unit tests check on generated text, non-ASCII included.
 */

/** Character classes: 0 not part of a word, else a letter or digit with its case. */
const OTHER = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3; // \p{N}
const LETTER = 4; // \p{L} neither upper nor lower case (Lt, Lm, Lo)

const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII[c] = c >= 65 && c <= 90 ? UPPER : c >= 97 && c <= 122 ? LOWER : c >= 48 && c <= 57 ? DIGIT : OTHER;
}

const IS_UPPER = /^\p{Lu}$/u;
const IS_LOWER = /^\p{Ll}$/u;
const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;
const wide = new Map<number, number>();

function classOfWide(cp: number): number {
  let k = wide.get(cp);
  if (k === undefined) {
    const ch = String.fromCodePoint(cp);
    k = IS_UPPER.test(ch) ? UPPER : IS_LOWER.test(ch) ? LOWER : IS_LETTER.test(ch) ? LETTER : IS_NUMBER.test(ch) ? DIGIT : OTHER;
    if (wide.size > 65_536) wide.clear();
    wide.set(cp, k);
  }
  return k;
}

/** Call `emit` with each word of `text`, lower-cased, in order. */
export function eachWord(text: string, emit: (word: string) => void): void {
  const n = text.length;
  let start = -1; // start of the current word, -1 outside one
  let prev = OTHER; // class of the previous code point of the current word
  let i = 0;
  while (i < n) {
    let cp = text.charCodeAt(i);
    let width = 1;
    let k: number;
    if (cp < 128) k = ASCII[cp];
    else {
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
        const lo = text.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      k = classOfWide(cp);
    }
    if (k === OTHER) {
      if (start >= 0) emit(text.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (k === UPPER && (prev === LOWER || prev === DIGIT || (prev === UPPER && nextIsLower(text, i + width)))) {
      emit(text.slice(start, i).toLowerCase());
      start = i;
    }
    prev = k;
    i += width;
  }
  if (start >= 0) emit(text.slice(start).toLowerCase());
}

function nextIsLower(text: string, i: number): boolean {
  if (i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII[c] === LOWER;
  const cp = text.codePointAt(i)!;
  return classOfWide(cp) === LOWER;
}

/** The words of `text` (see `eachWord`). */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  eachWord(text, (w) => out.push(w));
  return out;
}
