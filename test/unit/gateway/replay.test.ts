import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { DecisionStore } from '../../../src/core/gateway/decisions';
import { plan, planOrOriginal } from '../../../src/core/gateway/plan';
import type { Api } from '../../../src/core/gateway/wire';
import { anthropicRequest, bigLog, chatRequest, planContext, removeTemps, responsesRequest, tempDir } from './shapes';

/** Same input → same bytes; stored decisions replayed so the prefix stays byte-identical; fail-open. */

after(removeTemps);
const LOG = bigLog();
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The second call of each API: the first call's messages, the model's answer, a new user turn. */
const NEXT: Record<Api, { first: () => Obj; more: object[]; list: 'messages' | 'input' }> = {
  anthropic: {
    first: () => anthropicRequest(LOG),
    more: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'The error is a null payment method.', signature: 'sig2' }, { type: 'text', text: 'Found it.' }] }, { role: 'user', content: [{ type: 'text', text: 'Fix it please.' }] }],
    list: 'messages',
  },
  responses: {
    first: () => responsesRequest(LOG),
    more: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Found it.' }] }, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it please.' }] }],
    list: 'input',
  },
  chat: {
    first: () => chatRequest(LOG),
    more: [{ role: 'assistant', content: 'Found it.' }, { role: 'user', content: 'Fix it please.' }],
    list: 'messages',
  },
};

/** The serialized items of a sent body. */
const items = (body: string, list: string) => ((JSON.parse(body) as Obj)[list] as unknown[]).map((i) => JSON.stringify(i));

for (const api of ['anthropic', 'responses', 'chat'] as const) {
  describe(`gateway replay: ${api}`, () => {
    it('is deterministic: the same request gives the same bytes, with a fresh store or the same one', () => {
      const raw = JSON.stringify(NEXT[api].first());
      const dir = tempDir();
      const a = plan(api, raw, planContext({ offloadDir: dir }));
      const b = plan(api, raw, planContext({ offloadDir: dir }));
      assert.ok(a.body);
      assert.equal(a.body, b.body);
      const store = new DecisionStore();
      const c = plan(api, raw, planContext({ offloadDir: dir, store }));
      const d = plan(api, raw, planContext({ offloadDir: dir, store }));
      assert.equal(c.body, a.body);
      assert.equal(d.body, a.body);
    });

    it('replays the stored decisions on the next call: every item sent before is sent again byte for byte, and the manifest says the prefix held', () => {
      const spec = NEXT[api];
      const store = new DecisionStore();
      const dir = tempDir();
      const first = spec.first();
      const one = plan(api, JSON.stringify(first), planContext({ offloadDir: dir, store }));
      assert.equal(one.prefix_stable, null, 'first call of the conversation');
      const second = { ...first, [spec.list]: [...(first[spec.list] as object[]), ...spec.more] };
      const ctx = planContext({ offloadDir: dir, store });
      const two = plan(api, JSON.stringify(second), ctx);
      assert.ok(two.body);
      const before = items(one.body!, spec.list);
      const after = items(two.body!, spec.list);
      assert.deepEqual(after.slice(0, before.length), before, 'the prefix is byte-identical');
      assert.equal(two.prefix_stable, true);
      assert.equal(two.conversation, one.conversation);
      const replayed = two.changes.filter((c) => c.replayed).map((c) => c.rule);
      assert.ok(replayed.includes('offloaded'), `the trim was replayed: ${JSON.stringify(two.changes)}`);
      assert.equal(ctx.offloaded.length, 0, 'nothing stored again');
      const system = (b: string) => JSON.stringify((JSON.parse(b) as Obj)[api === 'anthropic' ? 'system' : api === 'responses' ? 'instructions' : 'messages'][0]);
      assert.equal(system(two.body!), system(one.body!), 'the added pins block is the same');
    });

    it('started mid-conversation (no stored decision), the items before the last user turn are left as the agent sent them', () => {
      const spec = NEXT[api];
      const first = spec.first();
      const second = { ...first, [spec.list]: [...(first[spec.list] as object[]), ...spec.more] };
      const p = plan(api, JSON.stringify(second), planContext({ durable: [] }));
      assert.equal(p.body, undefined, JSON.stringify(p.changes));
    });
  });
}

describe('gateway fail-open', () => {
  it('a transform that throws gives the error and no plan: the caller forwards the original bytes', () => {
    const ctx = planContext();
    ctx.offload = () => {
      throw new Error('disk full');
    };
    const r = planOrOriginal('anthropic', JSON.stringify(anthropicRequest(LOG)), ctx);
    assert.equal(r.plan, undefined);
    assert.equal(r.error, 'disk full');
  });

  it('a body that is not JSON is an error too, never a crash', () => {
    const r = planOrOriginal('chat', '{"model": "gpt-4o", "messages": [', planContext());
    assert.match(r.error ?? '', /JSON/);
  });
});

describe('gateway decision store', () => {
  it('survives toJSON / fromJSON and replays the same bytes', () => {
    const store = new DecisionStore();
    const dir = tempDir();
    const raw = JSON.stringify(anthropicRequest(LOG));
    const one = plan('anthropic', raw, planContext({ offloadDir: dir, store }));
    const copy = DecisionStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
    const ctx = planContext({ offloadDir: dir, store: copy });
    const two = plan('anthropic', raw, ctx);
    assert.equal(two.body, one.body);
    assert.ok(two.changes.every((c) => c.rule === 'pins-added' || c.replayed));
    assert.equal(two.prefix_stable, true);
  });
});

describe('gateway prefix report', () => {
  it("an early message the agent rewrote itself: the prefix changed, but not by the gateway, and where it changed is said", () => {
    const store = new DecisionStore();
    const dir = tempDir();
    const first = anthropicRequest(LOG);
    plan('anthropic', JSON.stringify(first), planContext({ offloadDir: dir, store }));
    const messages = JSON.parse(JSON.stringify(first.messages)) as Obj[];
    messages[0].content[0].text = '<system-reminder>context, rewritten by the agent</system-reminder>';
    const second = { ...first, messages: [...messages, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, { role: 'user', content: 'next' }] };
    const p = plan('anthropic', JSON.stringify(second), planContext({ offloadDir: dir, store }));
    assert.equal(p.received_prefix_stable, false);
    assert.equal(p.prefix_stable, false);
    assert.equal(p.prefix_diverged_at, 0);
    assert.equal(p.prefix_broken_by_gateway, false);
    assert.ok(p.changes.some((c) => c.rule === 'offloaded' && c.replayed), 'the stored trim of the later message is still replayed');
  });
});
