import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { eachWord, splitWords } from '../../../src/core/task/words';
import { fcOptions } from '../property-harness';

/** The former tokenisation (a regex split and two Unicode replaces per word): the reference the one pass must equal. */
function regexWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{L}\p{N}]+/u)) {
    if (!raw) continue;
    const parts = raw.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2').split(' ');
    for (const p of parts) if (p) out.push(p.toLowerCase());
  }
  return out;
}

/** Letters, digits and separators of many scripts and cases, astral planes and lone surrogates included. */
const PIECES = [
  'a', 'b', 'z', 'A', 'B', 'Z', '0', '7', '_', '-', '.', ' ', '\n', '/', '$', '@',
  'é', 'É', 'ß', 'ẞ', 'İ', 'ı', 'Σ', 'σ', 'ς', 'Ω', 'ǅ', 'ǆ', 'Ǆ', 'ʰ', 'ー', '中', '文', 'ア', 'ق', 'ا', '٣', '४', '½', 'Ⅻ', 'ⅻ',
  'Я', 'я', 'Ё', 'ﬁ', 'K', 'ǈ', '\u0301', '\u200b', '\u00a0',
  '𝐀', '𝐚', '𝟙', '𐐀', '𐐨', '😀', '\ud800', '\udc00',
  'payment', 'Method', 'HTTP', 'Server', 'v2', 'API', 'XMLHttpRequest', 'getURLFor', 'ÄÖÜäöü', 'ΣΑΣ', 'ÉTÉ',
];

describe('the one-pass tokenizer', () => {
  it('splits identifiers, acronyms, digits and non-ASCII letters as written', () => {
    assert.deepEqual(splitWords('paymentMethod HTTPServer v2Api PAYMENT_METHOD getURLFor x'), ['payment', 'method', 'http', 'server', 'v2', 'api', 'payment', 'method', 'get', 'url', 'for', 'x']);
    assert.deepEqual(splitWords('Größe der Übertragung: ÉTÉ, çaVa'), ['größe', 'der', 'übertragung', 'été', 'ça', 'va']);
    assert.deepEqual(splitWords('ΣΑΣ Σίσυφος 中文テスト 𝐀𝐁𝐜'), ['σας', 'σίσυφος', '中文テスト', '𝐀', '𝐁𝐜']);
    assert.deepEqual(splitWords(''), []);
    assert.deepEqual(splitWords(' -- '), []);
    const seen: string[] = [];
    eachWord('aB c', (w) => seen.push(w));
    assert.deepEqual(seen, ['a', 'b', 'c']);
  });

  it('gives exactly the words of the former regex form, on generated text', (t) => {
    const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 4 }), fc.string({ unit: 'grapheme', maxLength: 3 })), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, (s) => assert.deepEqual(splitWords(s), regexWords(s))), fcOptions(t));
  });
});
