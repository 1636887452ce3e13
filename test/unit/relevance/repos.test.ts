import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { gitReader } from '../../../src/core/task/git';
import { docSets, headOf, materialize, outcome, REPOS } from './repos';

/** One task on one fixture repository: the decisions that govern it, and what may be loaded beside them. */
export interface Case {
  repo: string;
  task: string;
  /** Must be selected (loaded). */
  governing: string[];
  /** Relevant background: may be loaded or indexed, never counted as a distractor. */
  neutral?: string[];
}

export const CASES: Case[] = [
  {
    repo: 'nygard',
    task: 'Two customers were both assigned seat 14C on the same departure. SeatAllocator#allocate reads the seat and then writes the reservation without holding a lock. Fix the race so a seat cannot be double booked.',
    governing: ['doc/adr/0007-lock-seats-pessimistically-during-allocation.md'],
  },
  {
    repo: 'nygard',
    task: 'Mobile users are logged out after every deploy and after Redis maintenance. Where do we keep sessions, and why would a deploy reset them? See config/initializers/session_store.rb',
    governing: ['doc/adr/0008-keep-sessions-in-signed-cookies.md'],
  },
  { repo: 'nygard', task: 'How do we authenticate the mobile API?', governing: ['doc/adr/0011-authenticate-the-mobile-api-with-oauth-device-flow.md'] },
  {
    repo: 'madr',
    task: 'Customers receive duplicate notification emails: when the notifier worker restarts, messages in the notifications.email queue are delivered twice. Make NotificationConsumer idempotent.',
    governing: ['docs/decisions/0007-deliver-notifications-through-rabbitmq.md'],
    neutral: ['docs/runbooks/rabbitmq.md', 'docs/decisions/0011-require-idempotency-keys-on-payment-endpoints.md', 'docs/decisions/0013-localize-emails-with-icu-messageformat.md'],
  },
  {
    repo: 'madr',
    task: "A tenant saw another tenant's invoices in staging after a query forgot the tenant_id filter. How is tenant isolation enforced?",
    governing: ['docs/decisions/0002-isolate-tenants-with-postgresql-row-level-security.md'],
  },
  {
    repo: 'log4brains',
    task: 'Card payments time out at checkout when the payment provider is slow: the checkout page spins for 30 seconds and some customers pay twice after reloading. What did we decide about confirming payments?',
    governing: ['docs/adr/20210412-confirm-payments-through-webhooks.md'],
  },
  { repo: 'log4brains', task: 'Analytics cookies are set before the visitor accepts the banner; is that allowed?', governing: ['docs/adr/20220210-track-analytics-with-a-consent-banner.md'] },
  {
    repo: 'monorepo',
    task: 'checkout: the cart lock in Redis is released before the order is persisted, so two orders get created for one cart when the customer double clicks. See releaseCartLock in services/checkout/src/cartLock.ts.',
    governing: ['services/checkout/docs/adr/0002-lock-carts-in-redis-until-the-order-is-committed.md'],
    neutral: ['services/checkout/docs/adr/0001-record-architecture-decisions.md', 'services/checkout/docs/adr/0003-price-orders-in-integer-cents.md', 'services/checkout/docs/adr/0004-apply-vouchers-before-tax.md', 'services/checkout/docs/adr/0005-split-payment-capture-from-authorization.md'],
  },
  {
    repo: 'monorepo',
    task: 'Stock levels in the shop lag a day behind the ERP. Is the nightly stock import still how the inventory service syncs stock?',
    governing: ['services/inventory/docs/adr/0004-stream-stock-changes-from-the-erp.md'],
    neutral: ['services/inventory/docs/adr/0001-reserve-stock-with-redis-locks.md', 'services/inventory/docs/adr/0002-keep-a-stock-ledger.md', 'docs/adr/0002-communicate-between-services-through-events.md'],
  },
];

/** Every Markdown document of a fixture (instruction files aside). */
export function documentsOf(repo: string): string[] {
  const root = path.join(REPOS, repo);
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .map((p) => p.split(path.sep).join('/'))
    .filter((p) => /\.md$/.test(p) && !/(^|\/)AGENTS\.md$/.test(p))
    .sort();
}

describe('relevance on fixture repositories (tasks pasted as text)', () => {
  for (const c of CASES) {
    it(`${c.repo}: "${c.task.slice(0, 60)}…" loads what governs it and no distractor`, () => {
      const o = outcome(path.join(REPOS, c.repo), c.task);
      const sets = docSets(o);
      for (const g of c.governing) assert.ok(sets.selected.includes(g), `${g} is not selected: ${o.indexed.get(g) ?? o.rejected.get(g) ?? 'absent'}`);
      const distractors = sets.selected.filter((s) => !c.governing.includes(s) && !(c.neutral ?? []).includes(s));
      assert.deepEqual(distractors, []);
      for (const g of c.governing) assert.match(o.selected.get(g)!, /^applicable decision \(accepted\); relevant: .*mentions .*\(rank \d+ of \d+, score [\d.]+\)$/);
    });
  }

  it('nygard: retired decisions are rejected with their status, a proposal is never loaded, the named file is sent', () => {
    const o = outcome(path.join(REPOS, 'nygard'), CASES[0].task);
    assert.equal(o.rejected.get('doc/adr/0003-keep-user-sessions-in-redis.md'), 'superseded by ADR-0008');
    assert.equal(o.rejected.get('doc/adr/0005-authenticate-the-mobile-api-with-jwt.md'), 'deprecated decision');
    assert.equal(o.rejected.get('doc/adr/0012-move-search-to-elasticsearch.md'), 'rejected decision');
    assert.equal(o.rejected.get('doc/adr/template.md'), 'ADR template, not a decision');
    assert.match(o.rejected.get('doc/adr/0010-expose-a-graphql-api-for-partners.md')!, /^proposed and not relevant: .*below the index threshold 12%$/);
    assert.match(o.rejected.get('docs/onboarding.md')!, /^not relevant to the task: .*below the index threshold 12%$/);
    assert.match(o.selected.get('app/services/seat_allocator.rb')!, /^relevant: named in the task; mentions /);
    assert.deepEqual(o.warnings, []);
  });

  it('madr: "on hold" and "Deprecated" in other letter cases are retired; a relevant proposal is indexed as not in force', () => {
    const o = outcome(path.join(REPOS, 'madr'), 'Should we publish domain events to Kafka for analytics instead of RabbitMQ?');
    assert.equal(o.rejected.get('docs/decisions/0009-put-a-graphql-gateway-in-front-of-the-services.md'), 'on hold decision');
    assert.equal(o.rejected.get('docs/decisions/0010-retire-the-legacy-soap-endpoint.md'), 'deprecated decision');
    assert.equal(o.rejected.get('docs/decisions/0004-queue-notifications-in-a-database-table.md'), 'superseded by ADR-0007');
    assert.match(o.indexed.get('docs/decisions/0012-publish-domain-events-to-kafka.md')!, /^proposed: not in force; in the index \(mentions publish, domain, events, kafka, analytics/);
    assert.equal(o.selected.has('docs/decisions/0012-publish-domain-events-to-kafka.md'), false);
  });

  it('log4brains: the superseded slug names its successor; no component is claimed when the task has none', () => {
    const o = outcome(path.join(REPOS, 'log4brains'), CASES[5].task);
    assert.equal(o.rejected.get('docs/adr/20210105-call-the-payment-provider-synchronously.md'), 'superseded by 20210412-confirm-payments-through-webhooks');
    assert.equal(o.rejected.get('docs/adr/20210801-store-carts-in-local-storage.md'), 'deprecated decision');
    assert.equal(o.manifest.task.components, undefined);
    for (const reason of [...o.selected.values(), ...o.indexed.values(), ...o.rejected.values()]) assert.doesNotMatch(reason, /component/);
  });

  it('monorepo: the task names checkout; the nested AGENTS.md applies, other services are unrelated components', () => {
    const o = outcome(path.join(REPOS, 'monorepo'), CASES[7].task);
    assert.deepEqual(o.manifest.task.components, [{ name: 'checkout', from: 'named in the task' }]);
    assert.equal(o.selected.get('services/checkout/AGENTS.md'), 'mandatory (agents_md)');
    assert.equal(o.rejected.get('services/inventory/AGENTS.md'), 'AGENTS.md does not apply: no file of the task lies below services/inventory/');
    assert.equal(o.rejected.get('services/inventory/docs/adr/0001-reserve-stock-with-redis-locks.md'), "unrelated component: inventory (from services/inventory/); the task's: checkout (named in the task)");
    assert.match(o.selected.get('services/checkout/docs/adr/0002-lock-carts-in-redis-until-the-order-is-committed.md')!, /relevant: component checkout \(from services\/checkout\/\) named in the task; next to services\/checkout\/src\/cartLock\.ts; mentions cart, lock, redis/);
    // `checkout` is only in the record's path, not in its text: "mentions" does not claim it.
    assert.doesNotMatch(o.selected.get('services/checkout/docs/adr/0002-lock-carts-in-redis-until-the-order-is-committed.md')!, /mentions[^(]*checkout/);
  });

  it('monorepo with git: the last commit that touched the task\'s identifier is sent as its hunk with commit id and message', () => {
    const before = 'export async function placeOrder() {\n  // the lock was released after the commit\n}\n';
    const dir = materialize('monorepo', [{ path: 'services/checkout/src/placeOrder.ts', before, message: 'Release the cart lock in finally so errors do not leak locks' }], { 'services/checkout/src/cartLock.ts': fs.readFileSync(path.join(REPOS, 'monorepo/services/checkout/src/cartLock.ts'), 'utf8') + '// TODO\n' });
    try {
      const o = outcome(dir, CASES[7].task, { changes: gitReader(dir) });
      const id = headOf(dir);
      const hunk = o.manifest.selected.find((s) => s.source === `services/checkout/src/placeOrder.ts@${id}`);
      assert.ok(hunk, `no hunk selected: ${[...o.selected.keys()].join(', ')}`);
      assert.match(hunk.reason, new RegExp(`^relevant: changed in commit ${id} \\(Release the cart lock in finally so errors do not leak locks\\), hunks mentioning releaseCartLock, cartLock; `));
      const text = o.blocks.find((b) => b.source === hunk.source)!.text.split('\n');
      assert.deepEqual(text.slice(0, 2), [`commit ${id}: Release the cart lock in finally so errors do not leak locks`, '--- services/checkout/src/placeOrder.ts']);
      assert.ok(text.includes('   10 +    await releaseCartLock(redis, cartId, token);'), text.join('\n'));
      assert.match(o.selected.get('services/checkout/src/cartLock.ts')!, /^relevant: named in the task; changed in the working tree; /);
      assert.deepEqual(o.manifest.task.changed, ['services/checkout/src/cartLock.ts', 'services/checkout/src/placeOrder.ts']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
