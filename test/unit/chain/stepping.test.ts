import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble, type Assembly } from '../../../src/core/chain/assemble';
import { ContextBudgetExceeded } from '../../../src/core/errors';
import { withMaxInput } from '../../../src/core/policy';
import { loadSnapshot, type Snapshot } from '../../../src/core/sources/snapshot';
import { NO_GIT } from '../../../src/core/task/git';
import { counter, EXAMPLE } from '../helpers';
import { REPOS } from '../relevance/repos';
import { assertAgreement } from './agreement';

const NOW = () => new Date('2026-11-12T10:00:00Z');
const STEP = 250;

/** One task per workspace: the example's ticket, and a realistic task on each fixture repository. */
const WORKSPACES: { name: string; root: string; task: string; ladder?: true }[] = [
  { name: 'payment-incident', root: EXAMPLE, task: path.join(EXAMPLE, 'ticket.md'), ladder: true },
  { name: 'nygard', root: path.join(REPOS, 'nygard'), task: 'Two customers were both assigned seat 14C on the same departure. SeatAllocator#allocate reads the seat and then writes the reservation without holding a lock. Fix the race.' },
  { name: 'madr', root: path.join(REPOS, 'madr'), task: 'Customers receive duplicate notification emails when the notifier worker restarts. Make NotificationConsumer idempotent.' },
  { name: 'log4brains', root: path.join(REPOS, 'log4brains'), task: 'Card payments time out at checkout when the payment provider is slow. What did we decide about confirming payments?' },
  { name: 'monorepo', root: path.join(REPOS, 'monorepo'), task: 'checkout: the cart lock in Redis is released before the order is persisted. See releaseCartLock in services/checkout/src/cartLock.ts.' },
];

function at(snapshot: Snapshot, max: number): Assembly | ContextBudgetExceeded {
  try {
    return assemble({ ...snapshot, policy: withMaxInput(snapshot.policy, max) }, { tokenizer: counter, now: NOW });
  } catch (e) {
    if (e instanceof ContextBudgetExceeded) return e;
    throw e;
  }
}

/**
 * prompt-tsx style: the budget steps down from 11 000 by 250 tokens until the call is refused. At every step every
 * manifest entry agrees with the bytes of the request; the refusal comes only when the protected zone alone exceeds
 * max_input, and a budget of exactly the protected zone is accepted.
 */
describe('stepping the budget down to refusal: the manifest agrees with request.json at every step', () => {
  for (const w of WORKSPACES) {
    it(w.name, () => {
      const snapshot = loadSnapshot({ root: w.root, task: w.task, cwd: w.root, changes: NO_GIT });
      let steps = 0;
      let ladders = 0;
      for (let max = 11000; ; max -= STEP) {
        const result = at(snapshot, max);
        if (result instanceof ContextBudgetExceeded) {
          assert.ok(result.mandatoryTokens > max, `${w.name} @${max}: refused although the protected zone (${result.mandatoryTokens}) fits`);
          const tight = at(snapshot, result.mandatoryTokens);
          assert.ok(!(tight instanceof ContextBudgetExceeded), `${w.name}: a budget of exactly the protected zone (${result.mandatoryTokens}) is accepted`);
          assertAgreement(tight, `${w.name} @${result.mandatoryTokens}`);
          break;
        }
        assertAgreement(result, `${w.name} @${max}`);
        steps++;
        if (result.manifest.degraded.length > 0) ladders++;
        assert.ok(max > 0, `${w.name}: never refused`);
      }
      assert.ok(steps >= 8, `${w.name}: ${steps} accepted steps before the refusal`);
      // The example has a session and a log: there the ladder must have run (on the fixtures fill may place all).
      if (w.ladder) assert.ok(ladders >= 1, `${w.name}: the ladder ran on at least one step`);
    });
  }
});
