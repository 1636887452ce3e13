import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CHARS_PER_TOKEN, contentTypeOf, contentTypeOfPath, estimateTokens, estimateTokensFromBytes, type ContentType } from '../../src/core/estimate';
import { counterFor } from '../../src/core/tokens';
import { EXAMPLE, REPO } from './helpers';

function walk(dir: string, re: RegExp, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, re, out);
    else if (re.test(e.name)) out.push(p);
  }
  return out;
}
const read = (files: string[], max = 300_000) => files.map((f) => fs.readFileSync(f, 'utf8')).join('\n').slice(0, max);

/** The corpora the ratios in estimate.ts were measured on (its comment), by content type. */
const CORPORA: { type: ContentType | 'cjk'; name: string; text: () => string }[] = [
  { type: 'prose', name: 'Markdown documents and ADRs', text: () => read([...walk(path.join(REPO, 'test', 'fixtures', 'repos'), /\.md$/), ...walk(path.join(EXAMPLE, 'docs'), /\.md$/)]) },
  { type: 'code', name: 'src/core TypeScript', text: () => read(walk(path.join(REPO, 'src', 'core'), /\.ts$/)) },
  { type: 'logs', name: 'the example\'s application.log', text: () => read([path.join(EXAMPLE, 'application.log')]) },
  { type: 'json', name: 'the example\'s session (JSON Lines)', text: () => read([path.join(EXAMPLE, '.context', 'session.jsonl')]) },
  { type: 'cjk', name: 'Chinese, Japanese and Korean sentences', text: () => '支付服务在结算导出时超时。日志显示上游响应缓慢，重试三次后失败。请检查账本批处理的锁定时间，并确认夜间报告是否完整。\n決済サービスは精算のエクスポート中にタイムアウトしました。ログには上流の応答が遅いことが示されています。\n결제 서비스가 정산 내보내기 중에 시간 초과되었습니다. 로그에는 업스트림 응답이 느린 것으로 나타납니다.' },
];

describe('token estimates calibrated per encoding and content type (estimate.ts)', () => {
  it('the measured ratios, characters per token', () => {
    assert.deepEqual(CHARS_PER_TOKEN, {
      o200k_base: { prose: 4.2, code: 3.85, logs: 2.5, json: 3.2, cjk: 1.35 },
      cl100k_base: { prose: 4.2, code: 3.85, logs: 2.5, json: 3.2, cjk: 1.04 },
    });
  });

  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    for (const c of CORPORA) {
      it(`${encoding}, ${c.name}: read as ${c.type}, estimated within 12 % of the exact count`, () => {
        const text = c.text();
        if (c.type !== 'cjk') assert.equal(contentTypeOf(text), c.type);
        const exact = counterFor(encoding).count(text);
        const estimate = estimateTokens(text, encoding);
        assert.ok(Math.abs(estimate - exact) / exact <= 0.12, `${c.name}: estimate ${estimate}, exact ${exact}`);
      });
    }
  }

  it('the example\'s architecture.md: the old 3.6 said 6 482 tokens, the calibrated estimate says 5 556, it is 5 658', () => {
    const arch = fs.readFileSync(path.join(EXAMPLE, 'docs', 'architecture.md'), 'utf8');
    assert.equal(arch.length, 23335);
    assert.equal(Math.ceil(arch.length / 3.6), 6482);
    assert.equal(estimateTokens(arch), 5556);
    assert.equal(counterFor('o200k_base').count(arch), 5658);
  });

  it('a size without its text is read by the file name; code when the name says nothing else', () => {
    assert.deepEqual(['a.md', 'logs/app.log', 'events.jsonl', 'Main.java', 'Makefile'].map(contentTypeOfPath), ['prose', 'logs', 'json', 'code', 'code']);
    assert.equal(estimateTokensFromBytes(42_000, 'docs/a.md'), 10_000);
    assert.equal(estimateTokensFromBytes(25_000, 'app.log'), 10_000);
    assert.equal(estimateTokensFromBytes(38_500, 'Main.java'), 10_000);
    assert.equal(estimateTokensFromBytes(25_000, 'app.log', 'cl100k_base'), 10_000);
    // A caller that does not name the bytes (trim, inspect, offload sizes) keeps the ratio it was written against.
    assert.equal(estimateTokensFromBytes(36_000), 10_000);
  });

  it('a mixed text counts its CJK characters at the CJK ratio', () => {
    assert.equal(estimateTokens('支付失败'.repeat(27)), Math.ceil(108 / 1.35));
    assert.equal(estimateTokens('支付失败'.repeat(27), 'cl100k_base'), Math.ceil(108 / 1.04));
    assert.equal(estimateTokens(`${'支付失败'.repeat(27)} the payment failed`), Math.ceil(108 / 1.35 + 19 / 4.2));
    // The scripts' first characters: Hangul's jamo from U+1100 (U+10FF, Georgian, is not CJK), Han's radicals, the
    // kana, and Han beyond the Basic Multilingual Plane (a surrogate pair: one character, two UTF-16 units).
    assert.deepEqual(['\u1100', '\u10ff', '\u2e80', '\u3041', '\u30a1', '\u{20000}', 'e\u0301'].map((c) => estimateTokens(c.repeat(100))), [75, 24, 75, 75, 75, 98, 48]);
  });

  it('the type read in one pass is the one the line-splitting regular expressions read, on real texts and on edge cases', () => {
    // The reading estimate.ts used before its one-pass loop, kept here as the oracle.
    const LOG = /^\s*\[?(\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}|\d{2}\/\w{3}\/\d{4}|[A-Z][a-z]{2} +\d{1,2} \d{2}:|(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\b)/;
    const oracle = (text: string): ContentType => {
      const sample = text.slice(0, 4096);
      const head = sample.trimStart();
      if (head.startsWith('{') || head.startsWith('[{') || head.startsWith('[\n') || head.startsWith('[ ')) return 'json';
      const lines = sample.split('\n').filter((l) => l.trim() !== '');
      if (lines.length > 0 && lines.filter((l) => LOG.test(l)).length / lines.length >= 0.3) return 'logs';
      const visible = sample.replace(/\s+/g, '').length;
      const code = sample.match(/[{}();=[\]<>]/g)?.length ?? 0;
      return visible > 0 && code / visible >= 0.06 ? 'code' : 'prose';
    };
    const texts = [
      ...walk(path.join(REPO, 'test', 'fixtures'), /\.(md|log|txt|json|ts|yaml|xml)$/).map((f) => fs.readFileSync(f, 'utf8')),
      ...walk(path.join(REPO, 'src', 'core', 'trim'), /\.ts$/).map((f) => fs.readFileSync(f, 'utf8')),
      '',
      '\n\n\n',
      ' \u00a0\u2028\u3000\ufeff\r\n\t',
      'ERROR',
      'x\nERROR\n\u2028 INFO started\nWARNING\u00a0x\n  [2026-01-01 x\n12/Jan/2026 a\nJan  3 10:00: b\nplain\nplain\nplain',
      '\r\n2026-01-01T00:00:00 a\r\nprose line\r\nprose line\r\n',
      'a\n\u2028\nINFOx\nINFO\u2029\n\u000bERROR:\n',
      '{}();=[]<>'.repeat(3) + ' words and more words here',
      'fn(a) { return b[c] <= d; }\n',
      '  [{"a":1}]',
      '[ 1, 2 ]',
      '[\n1]',
      'ERROR\n'.repeat(2000) + 'x'.repeat(5000),
    ];
    // Generated lines mixing log heads, blanks, Unicode spaces and punctuation, line by line (seeded: the same every run).
    let seed = 0x5eed;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const parts = ['ERROR x', 'INFO', ' WARN: y', '2026-11-12 z', '10:00:00 q', '[12/Jan/2026:1', 'Jan 12 10:00: r', 'prose words', 'f(x);', '{a: [b]}', '', ' ', '\t', '\u00a0', '\u2028', '\r', '\u3000WARNING', 'INFOS', 'DEBUGGER'];
    for (let k = 0; k < 400; k++) {
      const lines: string[] = [];
      for (let i = rand(12); i >= 0; i--) lines.push(parts[rand(parts.length)] + (rand(3) === 0 ? parts[rand(parts.length)] : ''));
      texts.push(lines.join('\n'));
    }
    const differ = texts.filter((t) => contentTypeOf(t) !== oracle(t)).map((t) => JSON.stringify(t.slice(0, 80)));
    assert.deepEqual(differ, []);
    assert.deepEqual(['logs', 'prose', 'code', 'json'].map((type) => texts.filter((t) => oracle(t) === type).length > 3), [true, true, true, true]);
  });
});
