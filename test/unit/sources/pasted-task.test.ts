import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { pastedTask } from '../../../src/core/sources/snapshot';

/** The comparison as it was written first: both texts normalized whole, every time. */
function reference(body: string, taskText: string): boolean {
  const norm = (t: string) => t.replace(/\s+/g, ' ').trim();
  const [doc, task] = [norm(body), norm(taskText)];
  return doc.length > 0 && (doc === task || (task.endsWith(doc) && doc.length > 0.8 * task.length));
}

describe('a document whose text is the pasted task (sources/snapshot.ts pastedTask)', () => {
  it('answers as normalizing both texts whole does, on random texts and white space of every kind (fast-check)', () => {
    const unit = fc.constantFrom('a', 'b', 'Why', ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\ufeff', '\u2028', '\u3000', '😀', '\ud83d', 'é', '.', '?');
    const text = fc.array(unit, { maxLength: 30 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(text, text, fc.nat(3), (task, other, mode) => {
        // Often the document is the task, its end, or the task with other white space: the cases that answer true.
        const body = mode === 0 ? other : mode === 1 ? task.replace(/ /g, '\n\n') : mode === 2 ? task.slice(Math.floor(task.length / 5)) : `${other}${task}`;
        assert.equal(pastedTask(task)(body), reference(body, task), JSON.stringify([task, body]));
      }),
      { numRuns: 3000, seed: 32 },
    );
  });

  it('tells a long document from a short task after reading about as many characters as the task has', () => {
    const is = pastedTask('Why does the payment gateway retry keep timing out?');
    assert.equal(is('Why does the payment gateway retry\n\nkeep timing out?\n'), true);
    assert.equal(is('the payment gateway retry keep timing out?'), true, 'most of its end');
    assert.equal(is('x'.repeat(1_000_000)), false);
    assert.equal(is(''), false);
    assert.equal(pastedTask('')('   '), false);
  });
});
