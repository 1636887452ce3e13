import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { redact } from '../../../src/core/redact/apply';
import { RULES } from '../../../src/core/redact/rules';
import { REPO } from '../helpers';

// The same rules with every pattern always run: the reference the hinted pass must equal.
const UNHINTED = RULES.map((r) => ({ ...r, hint: [''] }));
const reference = (text: string) => redact(text, UNHINTED);

const DIR = path.join(REPO, 'test', 'fixtures', 'secrets');
const fixture = (file: string) => fs.readFileSync(path.join(DIR, file), 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));

/** The text files of this repository's sources, tests, docs, scripts and example: code and prose nobody wrote for this test. */
function repoTexts(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (/\.(?:ts|mjs|js|md|json|ya?ml|txt|tsv|log|wat|sh)$/.test(e.name) && fs.statSync(abs).size < 512 * 1024) out.push(fs.readFileSync(abs, 'utf8'));
    }
  };
  for (const d of ['src', 'test', 'docs', 'scripts', 'examples']) walk(path.join(REPO, d));
  return out;
}

describe('each rule runs only on a text holding one of its hints (redact/rules.ts hint)', () => {
  it('every secret of the corpus holds a hint of the rule that finds it, in lower case', () => {
    for (const l of fixture('must-redact.tsv')) {
      const [id, secret, line] = l.split('\t');
      const rules = RULES.filter((r) => r.id === id);
      assert.ok(rules.some((r) => r.hint.some((h) => line.toLowerCase().includes(h))), `${id}: ${line}`);
      assert.equal(redact(line).text, reference(line).text, line);
      assert.ok(!redact(line).text.includes(secret));
    }
  });

  it('redacts as the unhinted rules do on the corpus and on every text file of this repository, line by line and whole', () => {
    const texts = [...fixture('must-redact.tsv').map((l) => l.split('\t')[2]), ...fixture('must-keep.txt'), ...repoTexts()];
    assert.ok(texts.length > 300, `${texts.length} texts`);
    let found = 0;
    for (const text of texts) {
      const got = redact(text);
      assert.deepEqual(got, reference(text), text.slice(0, 80));
      found += got.found.length;
      for (const line of text.split('\n')) assert.deepEqual(redact(line), reference(line), line);
    }
    assert.ok(found > 40, `the texts hold secrets the rules find (${found})`);
  });

  it('redacts as the unhinted rules do on random mixtures of secret spellings, credential words and other text (fast-check)', () => {
    const pieces = [...fixture('must-redact.tsv').map((l) => l.split('\t')[2]), ...fixture('must-keep.txt'), 'PASSWORD=', 'Token ', 'İ', 'ſ', 'K', '://', '\n', ' ', '"', 'x'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), (xs) => {
        const text = xs.join('');
        assert.deepEqual(redact(text), reference(text));
      }),
      { numRuns: 1000, seed: 31 },
    );
  });
});
