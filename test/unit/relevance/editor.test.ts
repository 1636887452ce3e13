import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { counter } from '../helpers';
import { outcome, REPOS } from './repos';

describe('editor signals and the index of available documents', () => {
  it('the selection\'s identifiers join the task; the active file is an anchor, and says so when it is a candidate', () => {
    const root = path.join(REPOS, 'monorepo');
    const snapshot = loadSnapshot({
      root,
      task: 'Why do two orders get created for one cart?',
      changes: false,
      editor: { activeFile: 'services/checkout/src/cartLock.ts', selection: 'await releaseCartLock(redis, cartId, token);', openFiles: ['services/checkout/src/placeOrder.ts', 'services/checkout/src/cartLock.ts'] },
    });
    assert.deepEqual(snapshot.task.signals?.identifiers, ['releaseCartLock', 'cartId']);
    assert.deepEqual(snapshot.task.files, []);
    assert.deepEqual(snapshot.task.editor, { activeFile: 'services/checkout/src/cartLock.ts', openFiles: ['services/checkout/src/placeOrder.ts', 'services/checkout/src/cartLock.ts'] });
    const { manifest } = assemble(snapshot, { tokenizer: counter, now: () => new Date(0) });
    const reason = (s: string) => manifest.selected.find((d) => d.source === s)?.reason ?? '';
    assert.match(reason('services/checkout/src/cartLock.ts'), /^relevant: the active file in the editor; next to services\/checkout\/src\/placeOrder\.ts; mentions cart, release, lock/);
    assert.equal(manifest.task.components, undefined);
    assert.match(reason('services/checkout/docs/adr/0002-lock-carts-in-redis-until-the-order-is-committed.md'), /^applicable decision \(accepted\); relevant: next to services\/checkout\/src\/cartLock\.ts; mentions orders, created, cart/);
  });

  it('<available-documents> shows a decision\'s status, its relevance and why it is not loaded', () => {
    const o = outcome(path.join(REPOS, 'madr'), 'Should we publish domain events to Kafka for analytics instead of RabbitMQ?');
    const index = o.blocks.find((b) => b.kind === 'index')!.text;
    const line = index.split('\n').find((l) => l.includes('0012-publish-domain-events-to-kafka.md'))!;
    assert.match(line, / status="proposed \(not in force\)" relevance="[\d.]+" not-loaded="not in force" \/>$/);
    for (const l of index.split('\n').filter((x) => x.includes('not-loaded="below the relevance threshold"'))) assert.match(l, / relevance="0\.(1[2-9]|2\d)\d*"/);
  });
});
