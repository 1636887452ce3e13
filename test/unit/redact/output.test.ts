import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactingWriter, redactOutput, redactOutputValue } from '../../../src/core/redact/output';

/** The one pass every output surface calls (issue 24): a text, a value, a writer. */
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
});
