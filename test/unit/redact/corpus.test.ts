import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { countRedactions, redact, redactDeep, redactLines } from '../../../src/core/redact/apply';
import { entropy, HINT, literalSecret, RULES } from '../../../src/core/redact/rules';
import { REPO } from '../helpers';

const DIR = path.join(REPO, 'test', 'fixtures', 'secrets');
const rows = (file: string) =>
  fs
    .readFileSync(path.join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));
const SECRETS = rows('must-redact.tsv').map((l) => {
  const [rule, secret, line] = l.split('\t');
  return { rule, secret, line };
});
const CODE = rows('must-keep.txt');

describe('redaction corpus (test/fixtures/secrets)', () => {
  it('has at least 40 secret spellings and 40 lines of code that name secrets', () => {
    assert.ok(SECRETS.length >= 40, `${SECRETS.length} secret spellings`);
    assert.ok(CODE.length >= 40, `${CODE.length} lines of code`);
    const ruleIds = new Set(RULES.map((r) => r.id));
    for (const s of SECRETS) assert.ok(ruleIds.has(s.rule), `unknown rule ${s.rule}`);
    for (const s of SECRETS) assert.ok(s.line.includes(s.secret), `the line holds its secret: ${s.line}`);
    for (const s of SECRETS) assert.ok(HINT.test(s.secret) || HINT.test(s.line), `the pre-check lets ${s.rule} through`);
  });

  for (const s of SECRETS) {
    it(`redacts ${s.rule}: ${s.line.slice(0, 60)}`, () => {
      const r = redact(s.line);
      assert.ok(!r.text.includes(s.secret), r.text);
      assert.equal(r.text, s.line.replace(s.secret, `[REDACTED:${s.rule}]`), 'only the secret is replaced, the rest of the line is byte-identical');
      assert.deepEqual(r.found, [{ rule: s.rule, line: 1 }]);
      assert.equal(redact(r.text).text, r.text, 'idempotent: a placeholder matches no rule');
    });
  }

  it('leaves every line of code byte-identical (identifiers, expressions, templates, placeholders)', () => {
    const changed = CODE.map((line) => ({ line, out: redact(line).text })).filter((x) => x.out !== x.line);
    assert.deepEqual(changed, []);
    const file = CODE.join('\n');
    assert.equal(redact(file).text, file, 'the corpus as one file is unchanged too');
  });

  it('reports the line of each secret in a multi-line text, after a multi-line private key', () => {
    const text = ['a', '-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA7bq9', '-----END RSA PRIVATE KEY-----', `x ${SECRETS[0].secret}`, 'DB_PASS=hunter22'].join('\n');
    const r = redact(text);
    assert.equal(r.text, ['a', '[REDACTED:private-key]', 'x [REDACTED:aws-access-key]', 'DB_PASS=[REDACTED:assigned-secret]'].join('\n'));
    assert.deepEqual(r.found, [{ rule: 'private-key', line: 2 }, { rule: 'aws-access-key', line: 5 }, { rule: 'assigned-secret', line: 6 }]);
    assert.equal(countRedactions(r.text), 3);
  });

  it('redacts a private key read line by line whole, and every other secret on its own line', () => {
    const lines = ['ok', `id=${SECRETS[0].secret}`, 'pre -----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAA', '-----END OPENSSH PRIVATE KEY----- post', 'after'];
    assert.deepEqual([...redactLines(() => lines)()], ['ok', 'id=[REDACTED:aws-access-key]', 'pre [REDACTED:private-key…]', '[REDACTED:private-key] post', 'after']);
  });

  it('redacts every string of a manifest-like value, keys included, and keeps its shape', () => {
    const found: { rule: string; line: number }[] = [];
    const out = redactDeep({ source: `notes/${SECRETS[0].secret}.md`, tokens: 12, list: ['DB_PASS=hunter22', null, true], [`k-${SECRETS[0].secret}`]: 1 }, found);
    assert.deepEqual(out, { source: 'notes/[REDACTED:aws-access-key].md', tokens: 12, list: ['DB_PASS=[REDACTED:assigned-secret]', null, true], 'k-[REDACTED:aws-access-key]': 1 });
    assert.deepEqual(found.map((f) => f.rule), ['aws-access-key', 'assigned-secret', 'aws-access-key']);
  });

  it('judges a literal by length and entropy: random values go, words, masks and short values stay', () => {
    assert.equal(entropy('aaaa'), 0);
    assert.equal(entropy('abcd'), 2);
    assert.deepEqual(
      ['hunter22', 'Winter2026!', 'xxxxxxxx', 'password', 'abc', '${TOKEN}', 'getToken()', 'result.AccessToken!', 'aaaaaaaa1'].map((v) => literalSecret(v, false)),
      [true, true, false, false, false, false, false, false, false],
    );
  });

  it('stays linear on hostile input (bounded patterns): 200 000 characters of near-matches', () => {
    const hostile = 'password=' + 'a-'.repeat(50_000) + ' ' + 'sk-'.repeat(30_000) + '<password>'.repeat(5_000) + '-----BEGIN PRIVATE KEY-----'.repeat(2_000);
    const r = redact(hostile);
    assert.ok(r.text.length > 0);
  });
});
