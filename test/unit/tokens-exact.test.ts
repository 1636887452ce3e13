import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { countUpTo, ENCODINGS, loadEncoding, TiktokenCounter, type EncodingName } from '../../src/core/tokens';
import { byteString, heapMerge, SCAN_BYTES, scanMerge } from '../../src/core/tokens-bpe';
import { prng } from './trim/fixtures';

const ALPHABETS = {
  base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=',
  hex: '0123456789abcdef',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  punct: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
  cjk: '支付失败请检查账户余额日志显示超时错误決済サービスがタイムアウトしました결제가거부되었습니다',
  mixed: "aé'sſ1_-./😀🚀👍\u0301\u00a0",
  space: '  \n\n\t\r\n\u3000\u0085\ufeff',
};

function draw(rand: () => number, alphabet: string, length: number): string {
  const chars = [...alphabet];
  let s = '';
  for (let i = 0; i < length; i++) s += chars[Math.floor(rand() * chars.length)];
  return s;
}

/** Long runs of one kind, joined by short stretches of white space: the inputs the old 256-character split got wrong. */
function randomText(rand: () => number): string {
  const kinds = Object.keys(ALPHABETS) as (keyof typeof ALPHABETS)[];
  let s = '';
  const runs = 1 + Math.floor(rand() * 4);
  for (let r = 0; r < runs; r++) {
    const kind = kinds[Math.floor(rand() * (kinds.length - 1))];
    s += draw(rand, ALPHABETS[kind], Math.floor(rand() * rand() * 3000));
    s += draw(rand, ALPHABETS.space, Math.floor(rand() * 3));
  }
  return s;
}

const logLine = (i: number) => `2026-11-12T10:00:${String(i % 60).padStart(2, '0')}.000Z ERROR 4821 --- [exec-${i % 20}] c.a.p.Ledger : call failed trace=${'x9f3'.repeat(100 + (i % 7))}`;
const seeded = prng(20261201);

/** A fixed corpus: every kind the counter meets, and the long runs without white space. */
const CORPUS: Record<string, string> = {
  code: 'export function f(a: number): string {\n  return `${a}`; // comment\n}\n/* block */\n\n\n  indented\n\tTabbed\r\nCRLF\n',
  logs: Array.from({ length: 30 }, (_, i) => logLine(i)).join('\n'),
  prose: "It's the user's choice; they'll see it. DON'T stop — we've 12345678 items, I'd say. Ünïcödé façade.\n",
  cjk: '支付失败，请检查账户余额。\n日志显示超时错误。決済サービスがタイムアウトしました。결제가 거부되었습니다。'.repeat(10),
  emoji: '👍 deploy ok\n🚀🚀 👨‍👩‍👧‍👦 family\n🇫🇷 ✅ done 👩🏽‍💻🏳️‍🌈'.repeat(10),
  boms: '\uFEFFline one \uFEFFvalue=1\n\uFEFFline two\u0085next\u00a0nbsp\u3000ideographic\n'.repeat(10),
  special: 'before<|endoftext|>after <|fim_prefix|> <|endofprompt|>\n<|endoftext|><|endoftext|>',
  surrogates: 'lone \ud800 high, \udc00 low, pair 😀, end \ud83d',
  // The reference's contractions fold case: 'ſ (long s) is a contraction like 's, which js-tiktoken's pattern misses.
  longS: " I'ſ it'ſ DON'ſT I'ſa the'ſe",
  base64: draw(seeded, ALPHABETS.base64, 20_000),
  minified: 'function a(b,c){return b.map(function(d){return d*c+1})}var e=a([1,2,3],4);'.repeat(300),
  hexDump: draw(seeded, ALPHABETS.hex, 30_000),
  url: 'https://example.com/api/v1/payments?' + Array.from({ length: 400 }, (_, i) => `k${i}=v${i * 7}`).join('&'),
  // Single pre-tokenized pieces of 12 000 characters and more (the reference's merge is quadratic: it takes seconds
  // on 100 KB pieces, so those are compared through `sameLetter` and the heap-versus-rescan test below).
  letters: draw(seeded, ALPHABETS.lower, 12_000),
  sameLetter: 'a'.repeat(16_384),
  upper: draw(seeded, ALPHABETS.upper, 12_000),
  punct: draw(seeded, ALPHABETS.punct, 12_000),
  cjkRun: draw(seeded, ALPHABETS.cjk, 5_000),
  digits: draw(seeded, '0123456789', 20_000),
};

function withReference(name: EncodingName, body: (ref: Tiktoken) => void): void {
  const ref = get_encoding(name);
  try {
    body(ref);
  } finally {
    ref.free();
  }
}

describe('exact counts (tokens-bpe.ts): equal to the reference tokenizer, tiktoken (WASM)', () => {
  for (const name of ENCODINGS) {
    it(`${name}: the fixed corpus, long runs without white space included`, () => {
      withReference(name, (ref) => {
        const ours = new TiktokenCounter(name, 0);
        for (const [kind, text] of Object.entries(CORPUS)) assert.equal(ours.count(text), ref.encode(text, 'all').length, `${name} ${kind}`);
        const all = Object.values(CORPUS).join('\n');
        assert.equal(ours.count(all), ref.encode(all, 'all').length, `${name} everything joined`);
      });
    });

    it(`${name}: 300 seeded random texts of long runs (base64, hex, letters, punctuation, CJK) and white space`, () => {
      withReference(name, (ref) => {
        const ours = new TiktokenCounter(name, 0);
        const rand = prng(name === 'o200k_base' ? 1 : 2);
        for (let i = 0; i < 300; i++) {
          const text = randomText(rand);
          assert.equal(ours.count(text), ref.encode(text, 'all').length, `${name} text ${i}: ${JSON.stringify(text.slice(0, 80))}`);
        }
      });
    });
  }

  it('pre-tokenizes as the reference: a contraction with ſ is one piece with its word', () => {
    withReference('o200k_base', (ref) => {
      assert.equal(ref.encode(" I'ſ", 'all').length, 2);
      assert.equal(new TiktokenCounter('o200k_base', 0).count(" I'ſ"), 2);
    });
  });

  it('merges with the heap exactly as with the reference\'s rescan, ties (runs of one byte) included', () => {
    for (const name of ENCODINGS) {
      const table = loadEncoding(name);
      const rand = prng(7);
      const samples = ['a'.repeat(200), 'ab'.repeat(150), '='.repeat(130), byteString('ééé'.repeat(40))];
      for (let i = 0; i < 200; i++) {
        const kinds = Object.values(ALPHABETS);
        samples.push(byteString(draw(rand, kinds[i % kinds.length], 2 + Math.floor(rand() * 300))));
      }
      for (const bytes of samples) assert.equal(heapMerge(table, bytes), scanMerge(table, bytes), `${name}: ${JSON.stringify(bytes.slice(0, 40))}`);
    }
    assert.equal(SCAN_BYTES, 64);
  });

  it('counts a 1 MB run without white space whole: a run of one letter gives the reference\'s count for 16 K of it, 64 times', () => {
    withReference('o200k_base', (ref) => {
      const run = 'a'.repeat(16_384);
      for (const name of ENCODINGS) {
        const counter = new TiktokenCounter(name, 0);
        // Runs of 8 a's are a token in both encodings: 2 048 tokens for 16 K, 131 072 for 1 M.
        if (name === 'o200k_base') assert.equal(ref.encode(run, 'all').length, 2048);
        assert.equal(counter.count(run), 2048, name);
        assert.equal(counter.count(run.repeat(64)), 131_072, name);
      }
    });
  });

  it('holds a byte string as one character per UTF-8 byte, lone surrogates as U+FFFD', () => {
    assert.equal(byteString('abc'), 'abc');
    assert.equal(byteString('é'), '\u00c3\u00a9');
    assert.equal(byteString('\ud800'), '\u00ef\u00bf\u00bd');
  });

  it('countUpTo is exact when the text fits and above the limit when it does not, on long runs too', () => {
    withReference('o200k_base', (ref) => {
      const text = [CORPUS.logs, CORPUS.base64, CORPUS.prose, CORPUS.hexDump].join('\n').repeat(2);
      const exact = ref.encode(text, 'all').length;
      const counter = new TiktokenCounter('o200k_base', 0);
      assert.equal(countUpTo(counter, text, exact), exact);
      assert.equal(countUpTo(counter, text, exact + 1000), exact);
      for (const limit of [0, 10, 1000, exact - 1]) assert.ok(countUpTo(counter, text, limit) > limit, `limit ${limit}`);
    });
  });
});
