import assert from 'node:assert/strict';
import * as path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { describe, it } from 'node:test';
import { resolvePolicy } from '../../../src/core/policy';
import type { WireShape } from '../../../src/core/providers/shape';
import { loadPolicy } from '../../../src/core/sources/snapshot';
import type { Assembly } from '../../../src/core/chain/pipeline';
import { handlers } from '../../../src/vscode/worker/ops';
import { postedResult, receivedResult } from '../../../src/vscode/worker/posted-assembly';

const root = path.resolve(__dirname, '../../../../examples/payment-incident');

function assembled(shape: WireShape, stream: boolean): Assembly {
  const policy = resolvePolicy(loadPolicy(root), { maxInput: undefined });
  const r = handlers.assemble({ snapshot: { root, task: path.join(root, 'ticket.md'), policy }, options: { shape, stream } }, () => undefined) as { assembly: Assembly };
  return r.assembly;
}

describe('an assembly posted from the worker to the host (worker/posted-assembly.ts)', () => {
  for (const [shape, stream] of [['openai', true], ['anthropic', false], ['anthropic', true], ['vscode-lm', true]] as const) {
    it(`${shape}${stream ? ', streaming' : ''}: crosses without its body and serialized text, and the host gets the same body and the same bytes`, () => {
      const a = assembled(shape, stream);
      assert.deepEqual(a.wire, { shape, stream });
      // As the worker posts it and the host receives it (assemble-worker.ts, client.ts), through a structured clone.
      const bytes = serialize(postedResult('assemble', { assembly: a }));
      const crossed = (deserialize(bytes) as { assembly: Record<string, unknown> }).assembly;
      assert.ok(!('request' in crossed) && !('serialized' in crossed), 'the body and its text are not posted');
      const whole = serialize(a).length;
      const saved = serialize(a.request).length + serialize(a.serialized).length;
      // (Objects the body shares with the neutral request, its tools, are written once in the whole: 2 % of slack.)
      assert.ok(bytes.length <= (whole - saved) * 1.02, `${bytes.length} bytes posted of ${whole}, the body and its text ${saved}`);
      const host = (receivedResult('assemble', { assembly: crossed }) as { assembly: Assembly }).assembly;
      assert.equal(host.serialized, a.serialized);
      assert.deepEqual(host.request, a.request);
      assert.equal(host.request, host.request, 'shaped once');
      assert.deepEqual(Object.keys(host).sort(), Object.keys(a).sort());
      assert.equal(JSON.stringify(host.manifest), JSON.stringify(a.manifest));
    });
  }

  it('leaves the results of other operations as they are, both ways', () => {
    const value = { text: 'x', found: true };
    assert.equal(postedResult('readDocument', value), value);
    assert.equal(receivedResult('readDocument', value), value);
  });
});
