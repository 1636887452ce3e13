import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryPattern } from '../../../src/core/send/tools';

describe('search_workspace query', () => {
  it('uses a regular expression when the query is one, else the literal text', () => {
    assert.equal(queryPattern('payment.*required').source, 'payment.*required');
    assert.ok(queryPattern('payment.*required').test('the Payment method is required'));
    assert.equal(queryPattern('[unclosed').source, '\\[unclosed');
    assert.ok(queryPattern('[unclosed').test('a [unclosed bracket'));
    assert.ok(queryPattern('PAYMENTMETHOD').test('paymentMethod is required'), 'case-insensitive');
  });

  it('runs nested quantifiers on the linear-time engine, so a model cannot stall the host with backtracking', () => {
    // With a backtracking engine each of these takes longer than the age of the universe on this input.
    const line = 'a'.repeat(5000) + 'b';
    assert.equal(queryPattern('^(a+)+$').source, '^(a+)+$');
    assert.equal(queryPattern('^(a+)+$').test(line), false);
    assert.equal(queryPattern('^(a|a)*$').test(line), false);
    assert.equal(queryPattern('(\\w*)*x').test(line), false);
    assert.equal(queryPattern('^(a|a)*$').test('a'.repeat(5000)), true);
  });

  it('takes a query over 1 000 characters literally', () => {
    const long = 'x.'.repeat(600);
    assert.equal(queryPattern(long).test('x'.repeat(1200)), false);
    assert.equal(queryPattern(long).test(`>${long}<`), true);
  });
});
