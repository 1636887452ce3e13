import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdleQueue } from '../../../src/cli/gateway-queue';

/** Record work waits for the calls in flight. */

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('gateway idle queue', () => {
  it('runs nothing while a call is in flight, then every job in order once none is', async () => {
    const q = new IdleQueue(10_000, 5);
    const ran: number[] = [];
    q.begin();
    q.push(() => ran.push(1));
    q.push(() => ran.push(2));
    await tick(40);
    assert.deepEqual(ran, []);
    assert.equal(q.quiet, false);
    q.end();
    await tick(20);
    assert.deepEqual(ran, [1, 2]);
    assert.equal(q.quiet, true);
  });

  it('a gateway that is never idle still records once the oldest job has waited its limit', async () => {
    const q = new IdleQueue(30, 5);
    const ran: number[] = [];
    q.begin();
    q.push(() => ran.push(1));
    await tick(80);
    assert.deepEqual(ran, [1]);
    q.end();
  });
});
