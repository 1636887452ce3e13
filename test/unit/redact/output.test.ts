import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactingWriter, redactOutput, redactOutputValue } from '../../../src/core/redact/output';

/** The one pass every output surface calls: a text, a value, a writer. */
describe('redactOutput (every output surface)', () => {
  it('redacts a text with the rule set and is idempotent', () => {
    const text = 'check failed: mysql -u root -pS3cr3tPass orders\nclient_secret Cs6!vB1#nQx rejected';
    const once = redactOutput(text);
    assert.equal(once, 'check failed: mysql -u root -p[REDACTED:command-line-secret] orders\nclient_secret [REDACTED:assigned-secret] rejected');
    assert.equal(redactOutput(once), once);
  });

  it('redacts every string of a value, keys included, and keeps its shape', () => {
    const value = { name: 'case password=Zq8!kLm2#xR from 10.0.0.1', n: 3, list: ['pwd=hunter2Xy9 user bob', null], 'token: Tk8!qW3#zLp,': true };
    assert.deepEqual(redactOutputValue(value), {
      name: 'case password=[REDACTED:assigned-secret] from 10.0.0.1',
      n: 3,
      list: ['pwd=[REDACTED:assigned-secret] user bob', null],
      'token: [REDACTED:assigned-secret],': true,
    });
  });

  it('a redacting writer writes each text redacted, code byte-identical', () => {
    const written: string[] = [];
    const write = redactingWriter((s) => void written.push(s));
    write('PGPASSWORD=Pg5qL2xW9z psql\n');
    write('password = getPassword(user)\n');
    assert.deepEqual(written, ['PGPASSWORD=[REDACTED:assigned-secret] psql\n', 'password = getPassword(user)\n']);
  });

  it('must run before a format escapes the text: after %0A / %3A (workflow commands) or &quot; (XML) the key is hidden', () => {
    const found = 'got:\npassword=Zq8!kLm2#xR from 10.0.0.1\ntoken: Tk8!qW3#zLp, "password":"Winter2026!x"';
    const esc = (s: string) => s.replace(/%/g, '%25').replace(/\n/g, '%0A').replace(/:/g, '%3A').replace(/,/g, '%2C');
    const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    for (const format of [esc, xml]) {
      const before = format(redactOutput(found));
      for (const secret of ['Zq8!kLm2#xR', 'Tk8!qW3#zLp', 'Winter2026!x']) assert.ok(!before.includes(secret), `${secret} in ${before}`);
    }
    // The order the surfaces must not use: escaped first, some secrets are no longer seen.
    assert.ok(redactOutput(esc(found)).includes('Zq8!kLm2#xR'));
    assert.ok(redactOutput(xml(found)).includes('Winter2026!x'));
  });
});
