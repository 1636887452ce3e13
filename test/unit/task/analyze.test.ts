import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTask, splitWords, wordsOf } from '../../../src/core/task/analyze';
import { resolveIdentifiers, resolveMentions, taskLooksLikeMissingFile } from '../../../src/core/task/mentions';

describe('task analysis', () => {
  it('finds paths, identifiers, codes, quoted messages and ADR references in pasted text', () => {
    const s = analyzeTask(
      'Legacy clients get HTTP 400 "paymentMethod is required" on POST /v1/payments since PAY-1423.\n' +
        'See src/main/PaymentController.java and `order_total`; ADR-12 and 0007-use-kafka-for-events say otherwise. ' +
        'ORA-00942 in payments.service.Retry, firmware pos-legacy/4.x.',
    );
    assert.deepEqual(s.paths, ['src/main/PaymentController.java']);
    assert.deepEqual(s.identifiers, ['paymentMethod', 'PaymentController', 'order_total', 'payments.service.Retry']);
    assert.deepEqual(s.codes, ['HTTP 400', 'PAY-1423', 'ADR-12', 'ORA-00942']);
    assert.deepEqual(s.quoted, ['paymentMethod is required']);
    assert.deepEqual(s.adrs, [
      { text: 'ADR-12', number: 12 },
      { text: '0007-use-kafka-for-events', slug: '0007-use-kafka-for-events', number: 7 },
    ]);
  });

  it('a short question gives its words, stop words dropped; a date is not an ADR slug', () => {
    const s = analyzeTask('How do we authenticate the mobile API? (asked 2026-11-12)');
    assert.deepEqual(s.words, ['authenticate', 'mobile', 'api', 'asked']);
    assert.deepEqual([s.paths, s.identifiers, s.adrs], [[], [], []]);
  });

  it('splits identifiers on case and separators: paymentMethod → payment, method', () => {
    assert.deepEqual(splitWords('paymentMethod PAYMENT_METHOD HTTPServer seat_allocator.rb'), ['payment', 'method', 'payment', 'method', 'http', 'server', 'seat', 'allocator', 'rb']);
    assert.deepEqual(wordsOf('Fix the paymentMethod for the payment'), ['payment', 'method']);
  });

  it('resolves mentioned paths and file-naming identifiers against the workspace, only when unambiguous', () => {
    const files = ['app/services/seat_allocator.rb', 'src/a/Util.ts', 'src/b/Util.ts', 'src/c/Util.ts', 'docs/seat-allocator.md', 'services/checkout/src/cartLock.ts'];
    assert.deepEqual(resolveMentions(['cartLock.ts', './app/services/seat_allocator.rb', 'Util.ts', 'missing.ts'], files), ['services/checkout/src/cartLock.ts', 'app/services/seat_allocator.rb']);
    assert.deepEqual(resolveIdentifiers(['SeatAllocator#allocate', 'Util', 'CartLock.release'], files), ['app/services/seat_allocator.rb', 'services/checkout/src/cartLock.ts']);
  });

  it('a one-word task shaped like a file name is reported as a missing file', () => {
    assert.equal(taskLooksLikeMissingFile(' tickets.md '), 'tickets.md');
    assert.equal(taskLooksLikeMissingFile('fix tickets.md'), undefined);
    assert.equal(taskLooksLikeMissingFile('PaymentController'), undefined);
  });
});
