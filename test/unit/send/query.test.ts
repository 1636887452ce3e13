import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryPattern } from '../../../src/core/send/tools';

describe('search_workspace query', () => {
  it('uses a regular expression when the query is a safe one, else the literal text', () => {
    assert.equal(queryPattern('payment.*required').source, 'payment.*required');
    assert.equal(queryPattern('[unclosed').source, '\\[unclosed');
    assert.ok(queryPattern('PAYMENTMETHOD').test('paymentMethod is required'), 'case-insensitive');
  });

  it('takes nested quantifiers literally, so a model cannot stall the host with catastrophic backtracking', () => {
    assert.equal(queryPattern('(a+)+$').source, '\\(a\\+\\)\\+\\$');
    assert.equal(queryPattern('(\\w*)*x').source, '\\(\\\\w\\*\\)\\*x');
    assert.ok(!queryPattern('(a+)+$').test('a'.repeat(40) + 'b'));
  });
});
