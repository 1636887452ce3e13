import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collect } from '../../../src/core/chain/collect';
import { prune } from '../../../src/core/chain/prune';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { fixture, tempWorkspace } from './fixtures';

/** Collect and prune as the chain does; every rejection with its reason, in order. */
function verdicts(name: string): { rejected: string[]; kept: string[]; disclosed: string[]; warnings: string[] } {
  const s = fixture(name);
  const collected = collect(s);
  const pruned = prune(collected.value.blocks, s.task.component);
  const docs = (blocks: typeof pruned.value.kept) => blocks.filter((b) => b.kind === 'decision' || b.kind === 'document').map((b) => b.source.replace(/^.*\//, ''));
  return {
    rejected: [...(collected.decisions.rejected ?? []), ...(pruned.decisions.rejected ?? [])].map((d) => `${d.source.replace(/^.*\//, '')}: ${d.reason}`),
    kept: docs(pruned.value.kept),
    disclosed: docs(pruned.value.disclosed),
    warnings: (collected.decisions.warnings ?? []).map((w) => w.message),
  };
}

describe('decision lifecycle in prune', () => {
  it('superseded, deprecated and rejected decisions are rejected with their reason; templates too; none silently', () => {
    assert.deepEqual(verdicts('madr-2').rejected, [
      'template.md: ADR template, not a decision',
      '0002-store-orders-in-postgresql.md: superseded by ADR-0004',
      '0003-use-graphql-for-the-storefront-api.md: rejected decision',
    ]);
    assert.deepEqual(verdicts('madr-4').rejected, [
      '0002-send-notifications-through-a-queue-table.md: superseded by ADR-0003',
      '0005-retire-the-legacy-soap-endpoint.md: deprecated decision',
    ]);
    assert.deepEqual(verdicts('log4brains').rejected, [
      'template.md: ADR template, not a decision',
      '20210105-call-the-payment-provider-synchronously.md: superseded by 20210412-confirm-payments-through-webhooks',
    ]);
  });

  it('a missing target and a cycle reach the manifest as warnings; decisions without a component are disclosed', () => {
    const v = verdicts('lifecycle');
    assert.deepEqual(v.rejected, [
      '0002-sign-webhooks-with-hmac.md: superseded by ADR-0099',
      '0003-version-the-api-in-the-path.md: superseded by ADR-0004',
      '0004-version-the-api-with-a-header.md: superseded by ADR-0003',
      '0007-rate-limit-per-api-key.md: superseded by ADR-0008',
    ]);
    assert.deepEqual(v.disclosed, [
      '0001-keep-sessions-in-redis.md',
      '0005-move-sessions-to-signed-cookies.md',
      '0006-publish-an-sdk-for-partners.md',
      '0008-rate-limit-per-partner-account.md',
    ]);
    assert.deepEqual(v.warnings, [
      'unknown status "Implemented": status unknown, not taken for accepted',
      'superseded by "ADR-0099", which is not a decision in the workspace',
      'supersession cycle: ADR-0003 → ADR-0004 → ADR-0003; each keeps the status its own file declares',
    ]);
  });

  it('a decision of another component is `unrelated component`; one of the task\'s component is kept', () => {
    const root = tempWorkspace({
      'docs/decisions/0001-billing.md': '---\nstatus: accepted\ncomponent: billing\n---\n# Round per line\n',
      'docs/decisions/0002-search.md': '---\nstatus: accepted\ncomponent: [search, indexing]\n---\n# Use BM25\n',
      'docs/decisions/0003-billing-old.md': '---\nstatus: superseded by ADR-0001\ncomponent: billing\n---\n# Round per invoice\n',
    });
    const s = loadSnapshot({ root, task: 'Fix rounding', component: 'Billing' });
    const pruned = prune(collect(s).value.blocks, s.task.component);
    assert.deepEqual(pruned.value.kept.filter((b) => b.kind === 'decision').map((b) => b.source), ['docs/decisions/0001-billing.md']);
    assert.deepEqual(pruned.decisions.rejected?.map((d) => [d.source, d.reason, d.component ?? null]), [
      ['docs/decisions/0002-search.md', 'unrelated component', 'search, indexing'],
      ['docs/decisions/0003-billing-old.md', 'superseded by ADR-0001', null],
    ]);
  });
});
