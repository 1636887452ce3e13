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

  // Unquoted values and command-line spellings: each spelling with a value shaped like an identifier and one full of punctuation.
  const ITEM5: [string, string][] = [
    ['password=V from 10.0.0.1', 'assigned-secret'],
    ['pwd=V user bob', 'assigned-secret'],
    ['mysql --password V -h db', 'command-line-secret'],
    ['mysql -u root -pV db', 'command-line-secret'],
    ['PGPASSWORD=V psql', 'assigned-secret'],
    ['token: V,', 'assigned-secret'],
    ['secret=V;', 'assigned-secret'],
    ['api_key=V (invalid)', 'assigned-secret'],
    ['client_secret V rejected', 'assigned-secret'],
    ['passwd:V for root', 'assigned-secret'],
  ];
  for (const [shape, rule] of ITEM5) {
    it(`redacts only the value of "${shape}", whatever the value looks like`, () => {
      for (const v of ['hunter2Xy9', 'Zq8!kLm2#xR', 'S3cr3tPass', 'q7Hd2Lm9Xr4/Tz8Kp1Vw6N']) {
        const line = shape.replace('V', v);
        const r = redact(line);
        assert.equal(r.text, shape.replace('V', `[REDACTED:${rule}]`), line);
        assert.deepEqual(r.found, [{ rule, line: 1 }]);
        assert.equal(redact(`2026-11-12T09:00:01Z ERROR ${line} (attempt 2)`).text.includes(v), false, `in a log line: ${line}`);
      }
    });
  }

  it('keeps object ids, generated class names and hashes that follow a credential word byte-identical', () => {
    for (const line of [
      'Bad activity token: android.os.BinderProxy@2bd79ce',
      'token=Foo@1a2b3c',
      'secret: com.acme.SecretService$$EnhancerBySpringCGLIB$$1a2b3c4d',
      'tokenProvider=MainActivity$1@5e6f7a8',
      'credentials: Foo$$FastClassBySpringCGLIB$$9f8e7d6c, retrying',
      'Could not get event name for stream/token: com.apple.xpc.activity/4505: 132: Request for stale data',
      'token: com.apple.security.sos/peer-7f3a, retrying',
    ]) assert.equal(redact(line).text, line);
    assert.equal(redact('password=Admin@123 user bob').text, 'password=[REDACTED:assigned-secret] user bob', 'a password with @ and digits is not an object id');
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

  it('leaves every line of code byte-identical inside serialized JSON too (request.json and the manifest are redacted as text)', () => {
    const changed = CODE.map((line) => JSON.stringify({ content: `a\n${line}\nb` })).filter((json) => redact(json).text !== json);
    assert.deepEqual(changed, []);
  });

  it('stays linear on the command-line and spaced spellings: doubling a hostile line at most about doubles its time', () => {
    const hostile = [' -p', ' -px', ' -a ', ' -u a', ' --user=a:', '--password ', '--a-b-c-password=', 'password ', 'client_secret a1b2c3 ', 'AAAAAAAAAAAAPASSWORD=', 'token: a1b2c3d4, ', '\\npassword=\\n'];
    const prefix = ['mysql ', 'mysql ', 'redis-cli ', 'curl ', 'curl ', '', '', '', '', '', '', ''];
    const time = (text: string) => {
      const t0 = process.hrtime.bigint();
      redact(text);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    hostile.forEach((unit, i) => {
      const base = prefix[i] + unit.repeat(Math.ceil(100_000 / unit.length));
      time(base);
      const one = Math.min(time(base), time(base));
      const two = Math.min(time(base + base), time(base + base));
      assert.ok(two < 4 * one + 50, `${JSON.stringify(unit)}: ${one.toFixed(1)} ms, doubled ${two.toFixed(1)} ms`);
      assert.ok(two < 2000, `${JSON.stringify(unit)} doubled: ${two.toFixed(1)} ms`);
    });
  });

  it('stays linear on hostile input (bounded patterns): 200 000 characters of near-matches', () => {
    const hostile = 'password=' + 'a-'.repeat(50_000) + ' ' + 'sk-'.repeat(30_000) + '<password>'.repeat(5_000) + '-----BEGIN PRIVATE KEY-----'.repeat(2_000);
    const r = redact(hostile);
    assert.ok(r.text.length > 0);
  });
});
