import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redact, redactDeep } from '../../../src/core/redact/apply';
import { ENGINE_REASON, redactManifestStrings, redactString } from '../../../src/core/report/redact-manifest';

const WORDS = ['payment', 'gateway', 'retry', 'token', 'tokens', 'password', 'secret', 'key', 'apikey', 'pass', 'pwd', 'bearer', 'curl', 'sk', 'ghp', 'auth', 'credential', 'x1'];
const reasons = (words: string) => [
  `not in this request: below the index threshold 12% but its text has half of the task's words: left out of the index: its budget of 1500 tokens was spent on documents ranked higher (by relevance, then path) (mentions ${words} (rank 4567 of 10001, score 0))`,
  `not in this request: below the relevance threshold 30%: left out of the index: its budget of 1500 tokens was spent on documents ranked higher (by relevance, then path) (mentions ${words} and 2 more (rank 2189 of 10001, score 0.144))`,
  `below the relevance threshold 30%: in the index (mentions ${words} (rank 12 of 10001, score 0.291))`,
];

describe('the manifest\'s redaction (report/redact-manifest.ts)', () => {
  it('gives what the whole rule set gives on engine reasons, whatever the task\'s words', () => {
    let matched = 0;
    for (let i = 0; i < WORDS.length; i++) {
      for (const words of [WORDS[i], `${WORDS[i]}, ${WORDS[(i + 1) % WORDS.length]}`, `payment, ${WORDS[i]}, ${WORDS[(i + 5) % WORDS.length]}`]) {
        for (const r of reasons(words)) {
          assert.ok(ENGINE_REASON.test(r), r);
          matched++;
          assert.equal(redactString(r), redact(r).text, r);
        }
      }
    }
    assert.equal(matched, WORDS.length * 9);
  });

  it('scans the whole string when a word holds a secret, or when it is not an engine reason', () => {
    const word = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const r = `below the relevance threshold 30%: in the index (mentions ${word} (rank 12 of 10001, score 0.291))`;
    assert.equal(ENGINE_REASON.test(r), false, 'upper case and _ are not task words');
    assert.equal(redactString(r), redact(r).text);
    assert.match(redactString(r), /\[REDACTED:/);
    const flagged = reasons('payment, gateway')[2];
    assert.equal(redactString(flagged, (w) => (w === 'gateway' ? '[REDACTED:x]' : w)), redact(flagged).text, 'a word the rule set flags: the whole string is scanned');
    for (const s of ['password = "hunter2hunter2"', 'mentions payment (rank 1 of 2, score 1)', 'API_KEY=sk-live-0123456789abcdef']) assert.equal(redactString(s), redact(s).text, s);
  });

  it('a short string remembered from an earlier manifest is redacted there too', () => {
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const manifest = () => ({ [secret]: [secret, `key=${secret}`], source: 'docs/a.md' });
    const first = redactManifestStrings(manifest());
    const second = redactManifestStrings(manifest());
    assert.deepEqual(second, first);
    assert.deepEqual(second, redactDeep(manifest()));
    assert.ok(!JSON.stringify(second).includes(secret));
  });

  it('redacts a manifest as redactDeep does: keys, values, nested lists; what holds no secret is returned as it is', () => {
    const clean = { version: 1, rejected: reasons('payment, token').map((reason, i) => ({ source: `notes/n-${i}.md`, kind: 'document', reason, tokens: 48 })) };
    assert.equal(redactManifestStrings(clean), clean);
    const dirty = { ...clean, warnings: [{ source: 'notes/.env.md', message: 'API_KEY=sk-live-0123456789abcdef' }], 'token=abcdef0123456789abcdef': [1] };
    const got = redactManifestStrings(dirty);
    assert.deepEqual(got, redactDeep(dirty));
    assert.notEqual(got, dirty);
    assert.equal(got.rejected, dirty.rejected, 'the unchanged part is not copied');
  });

  it('redacts as redactDeep does past what it remembers: 10 000 paths, secrets among the last, the same word lists again and again', () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      source: i === 9_990 ? 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' : `notes/n-${i}.md`,
      kind: i % 2 ? 'document' : 'decision',
      reason: reasons(i % 3 ? 'payment, gateway' : 'payment, token')[i % 3],
      tokens: i % 500,
      ...(i === 9_995 ? { note: 'API_KEY=sk-live-0123456789abcdef' } : {}),
    }));
    const manifest = { version: 1, rejected: entries };
    const got = redactManifestStrings(manifest);
    assert.deepEqual(got, redactDeep(manifest));
    assert.match(got.rejected[9_990].source, /\[REDACTED:/);
    assert.match(String(got.rejected[9_995].note), /\[REDACTED:/);
    assert.equal(got.rejected[9_000], entries[9_000], 'an entry without a secret is returned as it is');
  });
});
