import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { get_encoding } from 'tiktoken';
import { boundedCount, contentCuts, COUNT_STEP_CHARS, countUpTo, PIECEWISE_CHARS, safeCut, TiktokenCounter, tokenFloor, type Tokenizer } from '../../src/core/tokens';
import { REPO } from './helpers';
import { estimateBySample, SAMPLE_PIECE_CHARS, SAMPLE_PIECES } from '../../src/core/tokens-sample';
import { firstThatFits, type TrimOptions } from '../../src/core/trim/types';
import { EXACT_ORIGINAL_BYTES, trimToolOutputs } from '../../src/core/chain/trim';
import { defaultPolicy } from '../../src/core/policy';
import { linesOf } from '../../src/core/sources/scan';

const logLine = (i: number) => `2026-11-12T10:00:${String(i % 60).padStart(2, '0')}.000Z  INFO 4821 --- [exec-${i % 20}] c.a.p.api.PaymentController : Payment created id=pay_${i} amount=${i % 500}.00 EUR`;
const bigLog = (n: number) => Array.from({ length: n }, (_, i) => logLine(i)).join('\n');

/** Texts where a careless cut would change the count: newlines before `/` and white space, CJK, emoji, BOMs, NEL. */
const tricky = [
  bigLog(40),
  'function f() {\n  return 1;\n}\n// comment\n/* block */\n\n\n  indented\n\tTabbed\r\nCRLF line\n',
  '支付失败，请检查账户余额。\n日志显示超时错误。決済サービスがタイムアウトしました。\n결제가 거부되었습니다。'.repeat(20),
  '👍 deploy ok\n🚀🚀 👨‍👩‍👧‍👦 family\n🇫🇷 ✅ done '.repeat(30),
  '\uFEFFline one \uFEFFvalue=1\n\uFEFFline two\u0085next\u00a0nbsp\u3000ideographic\n'.repeat(25),
  "It's the user's choice; they'll see it.\nDon't stop — we've 12345678 items.\n".repeat(30),
];

describe('bounded counting', () => {
  const counter = new TiktokenCounter('o200k_base');

  it('adds up to the whole count across safe cuts, whatever the step', () => {
    const encode = (t: string) => new TiktokenCounter('o200k_base', 0).count(t);
    for (const text of tricky) {
      const whole = encode(text);
      for (const step of [1, 7, 50, 400]) assert.equal(boundedCount(encode, text, Number.MAX_SAFE_INTEGER, step).count, whole, `step ${step}: ${JSON.stringify(text.slice(0, 40))}`);
    }
  });

  it('cuts only after a newline that starts a new pre-token, or before a space between two words', () => {
    const text = 'ab;\n// c\n  d\nef gh';
    assert.equal(safeCut(text, 0), 13); // after "  d\n" (before "ef"): not after ";\n" (a "/" follows) nor after "c\n" (white space follows)
    assert.equal(safeCut(text, 14), 15); // before " gh"
    assert.equal(safeCut(text, 16), text.length);
  });

  it('equals the reference tokenizer (tiktoken, WASM) exactly, BOMs and U+0085 included', () => {
    for (const name of ['o200k_base', 'cl100k_base'] as const) {
      const ref = get_encoding(name);
      try {
        const ours = new TiktokenCounter(name);
        for (const text of tricky) assert.equal(ours.count(text), ref.encode(text, 'all').length, `${name}: ${JSON.stringify(text.slice(0, 40))}`);
      } finally {
        ref.free();
      }
    }
  });

  it('is exact up to the limit and stops one step past it', () => {
    const text = bigLog(5000); // about 600 000 characters
    const fresh = new TiktokenCounter('o200k_base');
    assert.equal(fresh.countUpTo(text.slice(0, 2000), 10_000), counter.count(text.slice(0, 2000)));
    const over = fresh.countUpTo(text, 100);
    assert.ok(over > 100, `${over} is above the limit`);
    assert.ok(fresh.encodedChars < 2000 + 2 * COUNT_STEP_CHARS, `encoded ${fresh.encodedChars} characters of ${text.length}`);
    // A bounded result is not cached as the count: the full count is still exact.
    assert.equal(fresh.count(text), counter.count(text));
  });

  it('remembers the steps of a bounded count: candidates sharing their start encode it once, with the same counts', () => {
    const rows = bigLog(400); // about 48 000 characters: the shared start
    const a = `${rows}\nline kept by the first candidate`;
    const b = `${rows}\nanother line kept by the second`;
    const fresh = new TiktokenCounter('o200k_base');
    const plain = new TiktokenCounter('o200k_base', 0);
    // Limits above the text's floor (tokenFloor: about 11 600 here, 18 800 exact), so the count is encoded in steps.
    assert.ok(tokenFloor(a) < 12_000 && plain.count(a) > 18_000);
    for (const limit of [12_000, 15_000, 18_000]) {
      const expected = boundedCount((t) => plain.count(t), a, limit).count;
      assert.equal(fresh.countUpTo(a, limit), expected, `limit ${limit}`);
    }
    const before = fresh.encodedChars;
    // The same start again under another text and limit: nothing of it is encoded again.
    assert.equal(fresh.countUpTo(b, 16_000), boundedCount((t) => plain.count(t), b, 16_000).count);
    assert.equal(fresh.encodedChars, before);
    // A limit the floor passes is answered by the floor, encoding nothing.
    assert.equal(fresh.countUpTo(b, 5_000), tokenFloor(b, 5_000));
    assert.equal(fresh.encodedChars, before);
    // Under the limit, the whole count is exact and equals the reference's.
    assert.equal(fresh.countUpTo(b, 1_000_000), plain.count(b));
    assert.equal(fresh.countUpTo(a, 1_000_000), plain.count(a));
  });

  it('falls back to the whole count for a counter without countUpTo', () => {
    const plain: Tokenizer = { encoding: 'chars', count: (t) => t.length };
    assert.equal(countUpTo(plain, 'abcdef', 2), 6);
  });

  it('firstThatFits rejects a candidate over budget without counting the rest of it', () => {
    const fresh = new TiktokenCounter('o200k_base');
    const huge = Array.from({ length: 20_000 }, (_, i) => logLine(i)); // about 2.4 M characters
    const small = huge.slice(0, 3);
    const options = { maxTokens: 500, count: (t: string, limit?: number) => countUpTo(fresh, t, limit ?? Infinity) } as TrimOptions;
    assert.deepEqual(firstThatFits([() => huge, () => small], options), small);
    const smallChars = small.join('\n').length;
    assert.ok(fresh.encodedChars <= 2 * COUNT_STEP_CHARS + 200 + smallChars, `encoded ${fresh.encodedChars} characters; the candidate had ${huge.join('\n').length}`);
  });

  it('chain/trim counts a trimmed tool output over 64 KiB only up to the zone and a sample: its original size is an estimate, flagged', () => {
    const fresh = new TiktokenCounter('o200k_base');
    const text = bigLog(6000) + '\n2026-11-12T10:01:00.000Z ERROR 4821 --- [exec-1] c.a.p.api.ApiExceptionHandler : Ledger call failed: Read timed out after 3000ms';
    assert.ok(Buffer.byteLength(text) > EXACT_ORIGINAL_BYTES);
    const out = trimToolOutputs([{ path: 'logs/app.log', size: Buffer.byteLength(text), lines: () => linesOf(text) }], defaultPolicy(), fresh);
    const trimmed = out.decisions.trimmed ?? [];
    assert.equal(trimmed.length, 1);
    assert.equal(trimmed[0].original_tokens, estimateBySample(counter, text).tokens);
    assert.equal(trimmed[0].original_tokens_exact, false);
    const exact = counter.count(text);
    assert.ok(Math.abs(Number(trimmed[0].original_tokens) - exact) <= exact * 0.02, `estimate ${trimmed[0].original_tokens} vs exact ${exact}`);
    // Before: the text itself was counted whole for the record; now the sample and what the trim needs.
    assert.ok(fresh.encodedChars < 0.25 * text.length, `encoded ${fresh.encodedChars} characters for a ${text.length}-character output`);
  });

  it('chain/trim counts a trimmed tool output of at most 64 KiB exactly, once', () => {
    const fresh = new TiktokenCounter('o200k_base');
    const text = bigLog(500) + '\n2026-11-12T10:01:00.000Z ERROR 4821 --- [exec-1] c.a.p.api.ApiExceptionHandler : Ledger call failed: Read timed out after 3000ms';
    assert.ok(Buffer.byteLength(text) <= EXACT_ORIGINAL_BYTES && counter.count(text) > defaultPolicy().zones.tool_results.max_tokens);
    const out = trimToolOutputs([{ path: 'logs/app.log', size: Buffer.byteLength(text), lines: () => linesOf(text) }], defaultPolicy(), fresh);
    const [entry] = out.decisions.trimmed ?? [];
    assert.deepEqual([entry.original_tokens, entry.original_tokens_exact], [counter.count(text), true]);
    assert.ok(fresh.encodedChars < 1.1 * text.length, `encoded ${fresh.encodedChars} characters for a ${text.length}-character output`);
  });

  it('estimateBySample counts short texts exactly and a long one from SAMPLE_PIECES pieces, per encoding', () => {
    const short = bigLog(100);
    assert.deepEqual(estimateBySample(counter, short), { tokens: counter.count(short), sampledChars: short.length });
    const long = bigLog(3000) + '\n' + 'これは日本語の文です。'.repeat(4000);
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const fresh = new TiktokenCounter(encoding);
      const est = estimateBySample(fresh, long);
      assert.equal(fresh.encodedChars, est.sampledChars);
      assert.ok(est.sampledChars <= SAMPLE_PIECES * (SAMPLE_PIECE_CHARS + SAMPLE_PIECE_CHARS / 2), `${est.sampledChars} characters sampled`);
      assert.equal(est.tokens, estimateBySample(new TiktokenCounter(encoding), long).tokens, 'deterministic');
      const exact = new TiktokenCounter(encoding).count(long);
      assert.ok(Math.abs(est.tokens - exact) <= exact * 0.1, `${encoding}: estimate ${est.tokens} vs exact ${exact}`);
    }
  });
});

describe('piecewise counting of long texts (a whole request)', () => {
  // Every tricky text twice, then as JSON (the serialized request escapes its newlines): about 160 K characters.
  const long = [...tricky, ...tricky, JSON.stringify({ content: tricky.join('\n') }), ...tricky].join('\n').repeat(4);

  it('cuts only at safe cuts, content-defined: an edit leaves the pieces after it the same strings', () => {
    assert.ok(long.length > 3 * PIECEWISE_CHARS);
    const cuts = contentCuts(long);
    assert.equal(cuts.at(-1), long.length);
    assert.ok(cuts.length > 8, `${cuts.length} pieces`);
    for (let i = 0; i < cuts.length - 1; i++) {
      assert.equal(safeCut(long, cuts[i]), cuts[i], `cut ${i} at ${cuts[i]} is safe`);
      assert.ok(cuts[i] - (cuts[i - 1] ?? 0) >= 2048);
    }
    const pieces = (t: string) => contentCuts(t).map((c, i, all) => t.slice(all[i - 1] ?? 0, c));
    const at = Math.floor(long.length / 3);
    const edited = long.slice(0, at) + ' Edit 7: the ledger retry now backs off. ' + long.slice(at);
    const before = pieces(long);
    const after = new Set(pieces(edited));
    const kept = before.filter((p) => after.has(p)).join('').length;
    assert.ok(kept > 0.85 * long.length, `${kept} of ${long.length} characters are in pieces the edit left as they were`);
  });

  it('counts exactly as the reference tokenizer, and after a small edit encodes only the pieces around it', () => {
    const ref = get_encoding('o200k_base');
    try {
      const fresh = new TiktokenCounter('o200k_base');
      assert.equal(fresh.count(long), ref.encode(long, 'all').length);
      const at = Math.floor(long.length / 2);
      const edited = long.slice(0, at) + ' one more word' + long.slice(at);
      const encoded = fresh.encodedChars;
      assert.equal(fresh.count(edited), ref.encode(edited, 'all').length);
      assert.ok(fresh.encodedChars - encoded < 0.2 * long.length, `encoded ${fresh.encodedChars - encoded} of ${edited.length} characters again`);
    } finally {
      ref.free();
    }
  });
});

describe('the token floor: a bound under the exact count, without encoding (tokens.ts tokenFloor)', () => {
  const logs = fs.readdirSync(path.join(REPO, 'test', 'fixtures', 'tool-output')).filter((f) => f.endsWith('.log'));
  const real = [...logs.map((f) => fs.readFileSync(path.join(REPO, 'test', 'fixtures', 'tool-output', f), 'utf8')), fs.readFileSync(path.join(REPO, 'src', 'core', 'tokens.ts'), 'utf8'), fs.readFileSync(path.join(REPO, 'README.md'), 'utf8')];

  it('is at most the reference count in both encodings, on real logs, code and prose, whole and line by line', () => {
    assert.ok(logs.length >= 10, `${logs.length} logs`);
    for (const name of ['o200k_base', 'cl100k_base'] as const) {
      const ref = get_encoding(name);
      try {
        for (const text of [...tricky, ...real]) {
          const exact = ref.encode(text, 'all').length;
          const floor = tokenFloor(text);
          assert.ok(floor <= exact, `${name}: ${floor} > ${exact} for ${JSON.stringify(text.slice(0, 60))}`);
          for (const line of text.split('\n').slice(0, 400)) assert.ok(tokenFloor(line) <= ref.encode(line, 'all').length, `${name}: ${JSON.stringify(line)}`);
        }
        // Punctuation one pre-token may hold whole, whatever surrounds it.
        for (const t of ["'-'", '_-_', '—-—', "'", '_', "a'-'b", '<|endoftext|>', 'x<|fim_prefix|>y', "It's", "they'll've", '1_2', "12'34", '__init__', "''''"]) assert.ok(tokenFloor(t) <= ref.encode(t, 'all').length, `${name}: ${t}`);
        assert.deepEqual(["'-'", '_-_', '—-—', 'café', 'a_b', "It's", '1234567', 'ab12cd'].map((t) => tokenFloor(t)), [0, 0, 0, 0, 1, 1, 3, 3]);
        // Tight enough to decide a threshold on a log: more than half its tokens.
        const log = fs.readFileSync(path.join(REPO, 'test', 'fixtures', 'tool-output', 'hdfs.log'), 'utf8');
        assert.ok(tokenFloor(log) > 0.4 * ref.encode(log, 'all').length, `${tokenFloor(log)} of ${ref.encode(log, 'all').length}`);
      } finally {
        ref.free();
      }
    }
  });

  it('is at most the reference count on random mixtures of letters, digits, punctuation, white space, non-ASCII and special tokens (fast-check)', () => {
    const refs = (['o200k_base', 'cl100k_base'] as const).map((n) => get_encoding(n));
    const pieces = ['a', 'Z', 'ms', "'-'", '_-_', '__', 'INFO', '_', '0', '12', '1234567', ' ', '  ', '\t', '\n', '\r\n', '-', '.', ':', '/', '[', ']', '"', "'s", "'", '<|endoftext|>', '<|fim_prefix|>', '<|endofprompt|>', 'é', 'ſ', 'İ', '—', '٣', '²', '\u00a0', '\u0085', '\u3000', '\uFEFF', '支付', '👍', '\u0301', '\uD800'];
    try {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (xs) => {
          const text = xs.join('');
          for (const ref of refs) assert.ok(tokenFloor(text) <= ref.encode(text, 'all').length, JSON.stringify(text));
        }),
        { numRuns: 5000, seed: 11 },
      );
    } finally {
      for (const r of refs) r.free();
    }
  });

  it('decides a bounded count far over its limit without encoding; near or under it, the count is encoded as before', () => {
    const text = bigLog(2000);
    const fresh = new TiktokenCounter('o200k_base');
    const over = fresh.countUpTo(text, 6000);
    assert.ok(over > 6000, `${over}`);
    assert.equal(fresh.encodedChars, 0, 'the floor passed the limit: nothing was encoded');
    assert.equal(tokenFloor(text, 6000), over, 'the floor, counted only until it passed the limit');
    const exact = new TiktokenCounter('o200k_base').count(text);
    assert.ok(tokenFloor(text) < exact);
    assert.equal(fresh.countUpTo(text, exact), exact, 'at the exact count, the limit is not passed: encoded');
    assert.ok(fresh.encodedChars > 0);
  });
});
