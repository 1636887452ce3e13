import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { redact, ruleHits } from '../../../src/core/redact/apply';
import { RULES } from '../../../src/core/redact/rules';
import { REPO } from '../helpers';

// The same rules searched over the whole text, as a global pattern does: the reference the `starts` places must equal.
const WHOLE = RULES.map((r) => ({ ...r, starts: undefined }));
const reference = (text: string) => redact(text, WHOLE);
const STARTING = RULES.filter((r) => r.starts);
const hitsOf = (text: string, rules: typeof RULES) => rules.flatMap((r) => ruleHits(text, r).map((h) => [h.start, h.end, h.rule.id]));

const DIR = path.join(REPO, 'test', 'fixtures', 'secrets');
const fixture = (file: string) => fs.readFileSync(path.join(DIR, file), 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));

describe('a rule that says where its matches start is tried there alone (redact/rules.ts starts)', () => {
  it('the two assigned-secret rules say so, and no other', () => {
    assert.deepEqual(
      STARTING.map((r) => r.id),
      ['assigned-secret', 'assigned-secret'],
    );
  });

  it('finds what the whole-text search finds on the corpus, line by line and as one text', () => {
    const lines = [...fixture('must-redact.tsv').map((l) => l.split('\t')[2]), ...fixture('must-keep.txt')];
    let found = 0;
    for (const line of lines) {
      assert.deepEqual(hitsOf(line, STARTING), hitsOf(line, WHOLE.filter((r) => r.id === 'assigned-secret')), line);
      assert.deepEqual(redact(line), reference(line), line);
      found += hitsOf(line, STARTING).length;
    }
    const all = lines.join('\n');
    assert.deepEqual(redact(all), reference(all));
    assert.ok(found > 20, `the corpus holds assigned secrets (${found})`);
  });

  it('finds what the whole-text search finds on random names, separators, quotes and values (fast-check)', () => {
    const pieces = [
      ...['password', 'PASSWORD', 'Passwd', 'pass', 'pw', 'PWD', 'secret', 'Token', 'token', 'apiKey', 'api_key', 'api-key', 'API.KEY', 'AccessKey', 'client_secret', 'credentials', 'sas', 'key_base', 'PGPASSWORD', 'MYSQLPWD', 'passwordField', 'tokenizer', 'cacheKey'],
      ...['=', ' = ', ':', ': ', ':=', '=>', '==', '::', ' ', '\t', '\n', '"', "'", '`', ',', ';', '&', ')', '<', '\\n', '\\', '{', '$'],
      ...['_', '.', '-', 'x', 'db', 'DB', '9', 'my', 'S3cr3tV4lue', 'hunter2', 'ghX7qLm2Rv9TzK4w', 'changeme', 'example', 'İ', 'ſ', 'K', 'é', 'pa', 'ss', 'to', 'ken'],
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 14 }), (xs) => {
        const text = xs.join('');
        assert.deepEqual(hitsOf(text, STARTING), hitsOf(text, WHOLE.filter((r) => r.id === 'assigned-secret')));
        assert.deepEqual(redact(text), reference(text));
      }),
      { numRuns: 10000, seed: 7 },
    );
  });

  it('names each run of name characters holding a credential word once, with the quote before it for the quoted form', () => {
    const [quoted, unquoted] = STARTING;
    assert.deepEqual(quoted.starts!('a "db_password": "x", token=y pw'), [2, 3, 22, 30]);
    assert.deepEqual(unquoted.starts!('a "db_password": "x", token=y pw'), [3, 22, 30]);
    // One run, however many words it holds: the search goes on past its end.
    assert.deepEqual(unquoted.starts!(`x${'pw'.repeat(50_000)} key`), [0, 100_002]);
    assert.deepEqual(unquoted.starts!('no such word here'), []);
  });
});
