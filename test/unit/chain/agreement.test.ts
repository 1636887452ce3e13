import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble, type Assembly } from '../../../src/core/chain/assemble';
import { withMaxInput } from '../../../src/core/policy';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { NO_GIT } from '../../../src/core/task/git';
import { counter, EXAMPLE } from '../helpers';
import { assertAgreement, listedPaths, requestStrings } from './agreement';

const NOW = () => new Date('2026-11-12T10:00:00Z');
const snapshot = loadSnapshot({ root: EXAMPLE, task: path.join(EXAMPLE, 'ticket.md'), changes: NO_GIT });
const at = (max: number, policy = snapshot.policy) => assemble({ ...snapshot, policy: withMaxInput(policy, max) }, { tokenizer: counter, now: NOW });
/** The same assembly with one manifest section changed. */
const mutate = (a: Assembly, change: (m: Assembly['manifest']) => void): Assembly => {
  const manifest = structuredClone(a.manifest);
  change(manifest);
  return { ...a, manifest };
};

describe('the manifest/request agreement checker (test/unit/chain/agreement.ts)', () => {
  const a = at(11000);

  it('accepts the example\'s assembly and reads the sent index', () => {
    assertAgreement(a, 'example');
    assert.deepEqual(listedPaths(requestStrings(a.serialized)), a.manifest.indexed.map((d) => d.source).sort());
  });

  it('bites: an indexed entry the index does not list, a rejected entry that was sent, a wrong trimmed figure, a budget that does not add up', () => {
    const cases: [string, (m: Assembly['manifest']) => void, RegExp][] = [
      ['indexed, not listed', (m) => m.indexed.push({ source: 'docs/adr/adr-008-payment-method-mandatory.md', kind: 'decision', reason: 'x' }), /indexed = the paths the sent index lists/],
      ['rejected, yet sent', (m) => m.rejected.push({ source: 'AGENTS.md', kind: 'agents_md', reason: 'x' }), /AGENTS\.md: rejected or indexed, yet sent as a block/],
      ['trimmed figure', (m) => void (m.trimmed[0].tokens = (m.trimmed[0].tokens ?? 0) + 1), /trimmed figure = the block sent/],
      ['overhead', (m) => void (m.budget.overhead += 1), /zones \+ overhead = final/],
      ['selected figure', (m) => void (m.selected[0].tokens = 1), /the manifest carries the block's figure/],
    ];
    for (const [name, change, message] of cases) assert.throws(() => assertAgreement(mutate(a, change), name), message, name);
  });

  it('a request without tool definitions does not advertise builtin:tools in its index; it is rejected with the budget that bound', () => {
    const policy = { ...snapshot.policy, mandatory: snapshot.policy.mandatory.filter((k) => k !== 'tool_definitions') };
    const tight = at(2600, policy);
    assertAgreement(tight, 'no tools');
    assert.equal((JSON.parse(tight.serialized) as { tools?: unknown }).tools, undefined);
    assert.ok(!listedPaths(requestStrings(tight.serialized)).includes('builtin:tools'));
    const tools = tight.manifest.rejected.find((d) => d.source === 'builtin:tools');
    assert.match(tools?.reason ?? '', /^not in this request: did not fit the budget \([\d\u202f]+ tokens left\)$/);
  });

  it('with --max-input 3000 the example sends a digest of application.log instead of dropping it', () => {
    const small = at(3000);
    assertAgreement(small, '3000');
    const log = small.blocks.find((b) => b.source === 'application.log');
    assert.ok(log?.meta.trim, 'application.log is sent, trimmed');
    assert.ok(log.tokens <= 700, `${log.tokens} tokens`);
    assert.deepEqual(small.manifest.trimmed.map((t) => t.source), ['application.log']);
    assert.ok(!small.manifest.rejected.some((d) => d.source === 'application.log'));
  });
});
