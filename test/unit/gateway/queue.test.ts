import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { IdleQueue } from '../../../src/cli/gateway-queue';

/** Record work waits for the calls in flight. The clock and the timers are mocked: nothing here waits for real time. */

describe('gateway idle queue', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  it('runs nothing while a call is in flight, then every job in order once none is', () => {
    // A turn's budget no job here can spend, so both run in one turn whatever the machine's speed.
    const q = new IdleQueue(10_000, 5, 60_000);
    const ran: number[] = [];
    q.begin();
    q.push(() => ran.push(1));
    q.push(() => ran.push(2));
    mock.timers.tick(9_999);
    assert.equal(ran.length, 0, 'polled every 5 ms for almost 10 s: a call is still in flight');
    assert.equal(q.quiet, false);
    q.end();
    assert.equal(ran.length, 0, 'the jobs run at the next poll, not inside end()');
    mock.timers.tick(5);
    assert.deepEqual(ran, [1, 2]);
    assert.equal(q.quiet, true);
  });

  it('a gateway that is never idle still records once the oldest job has waited its limit', () => {
    const q = new IdleQueue(30, 5, 60_000);
    const ran: number[] = [];
    q.begin();
    q.push(() => ran.push(1));
    mock.timers.tick(25);
    assert.equal(ran.length, 0, 'waited 25 of its 30 ms');
    q.push(() => ran.push(2));
    mock.timers.tick(5);
    assert.deepEqual(ran, [1], 'the oldest has waited 30 ms; the second only 5');
    mock.timers.tick(30);
    assert.deepEqual(ran, [1, 2]);
    assert.equal(q.quiet, false, 'the call is still in flight');
    q.end();
    assert.equal(q.quiet, true);
  });
});
