import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ContextBudgetExceeded } from '../../../src/core/errors';
import { resolvePolicy } from '../../../src/core/policy';
import { loadPolicy } from '../../../src/core/sources/snapshot';
import { pinOutcome } from '../../../src/view-model/pin-outcome';
import { assembleRequest } from '../../../src/vscode/worker/load';
import { pinTrial } from '../../../src/vscode/worker/pin-trial';
import { EXAMPLE } from '../helpers';

describe('view model: what pinning a file would do', () => {
  it('a refusal gives the protected blocks, the overflow and the window that would fit, as the refused panel does', () => {
    const o = pinOutcome('logs/huge.log', { kind: 'refused', pinTokens: 5682, mandatoryTokens: 8181, maxInput: 6000, window: 9000 }, [{ source: 'AGENTS.md', tokens: 700 }]);
    assert.equal(o.ask, true);
    assert.equal(o.message, 'Pin logs/huge.log (5\u202f682 tokens)? This pin would be refused: protected blocks 8\u202f181 tokens, 2\u202f181 over max_input 6\u202f000. Nothing can be sent until you unpin it or raise the window to 11\u202f181.');
  });

  it('a pin that fits names what the request drops and shortens against the request of now, and asks', () => {
    const now = [
      { source: 'AGENTS.md', tokens: 700 },
      { source: 'src/A.java', tokens: 832 },
      { source: 'application.log', tokens: 1452 },
      { source: 'docs/adr/adr-012.md', tokens: 946 },
    ];
    const after = [
      { source: 'AGENTS.md', tokens: 700 },
      { source: 'docs/big.md', tokens: 5682 },
      { source: 'application.log', tokens: 1007 },
    ];
    const o = pinOutcome('docs/big.md', { kind: 'fits', pinTokens: 5682, final: 10881, maxInput: 11000, sent: after }, now);
    assert.equal(o.ask, true);
    assert.deepEqual(o.drops, ['src/A.java', 'docs/adr/adr-012.md']);
    assert.equal(
      o.message,
      'Pin docs/big.md (5\u202f682 tokens)? It fits: the request would be 10\u202f881 / 11\u202f000 tokens; to make room the request drops: src/A.java (832 tokens), docs/adr/adr-012.md (946 tokens); and shortens: application.log (1\u202f452 → 1\u202f007 tokens).',
    );
  });

  it('a pin that costs nothing else asks nothing', () => {
    const now = [{ source: 'AGENTS.md', tokens: 700 }];
    const o = pinOutcome('docs/big.md', { kind: 'fits', pinTokens: 50, final: 900, maxInput: 11000, sent: [...now, { source: 'docs/big.md', tokens: 50 }] }, now);
    assert.equal(o.ask, false);
    assert.deepEqual(o.drops, []);
  });
});

describe('the pin trial is the request the panel shows after the pin', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-pin-trial-'));
  fs.cpSync(EXAMPLE, root, { recursive: true });
  const text = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
  const pin = { id: 'trial-1', source: 'docs/architecture.md', text, label: 'docs/architecture.md' };
  const inputs = (window: number) => ({
    root,
    task: path.join(root, 'ticket.md'),
    cwd: root,
    policy: resolvePolicy(loadPolicy(root, path.join(root, '.context', 'policy.yaml')), { envelope: { window }, source: 'settings' }),
    pins: [],
    sessionFile: path.join(root, '.context', 'session.jsonl'),
  });
  const options = { model: 'gpt-4o', shape: 'openai' as const };

  it('fits at 14 000: the final figure and the drops are those of the assembly with the pin', () => {
    const snapshot = inputs(14000);
    const now = assembleRequest({ snapshot, options }, () => {}).assembly;
    const trial = pinTrial({ snapshot, options, pin });
    const pinned = assembleRequest({ snapshot: { ...snapshot, pins: [pin] }, options }, () => {}).assembly;
    assert.equal(trial.kind, 'fits');
    if (trial.kind !== 'fits') return;
    assert.equal(trial.final, pinned.manifest.budget.final);
    assert.equal(trial.pinTokens, pinned.blocks.find((b) => b.id === 'pinned:trial-1')?.tokens);
    const o = pinOutcome(pin.source, trial, now.blocks);
    const sentAfter = new Set(pinned.blocks.map((b) => b.source));
    const dropped = now.blocks.map((b) => b.source).filter((s, i, all) => all.indexOf(s) === i && !sentAfter.has(s));
    assert.ok(dropped.length > 0, 'at 14 000 the pin pushes blocks out');
    assert.deepEqual(o.drops, dropped);
    assert.equal(o.ask, true);
  });

  it('refused at 9 000: the figures of the refusal the pin then causes', () => {
    const snapshot = inputs(9000);
    const trial = pinTrial({ snapshot, options, pin });
    assert.throws(
      () => assembleRequest({ snapshot: { ...snapshot, pins: [pin] }, options }, () => {}),
      (e: unknown) => {
        assert.ok(e instanceof ContextBudgetExceeded);
        assert.deepEqual(trial, { kind: 'refused', pinTokens: e.blocks.find((b) => b.id === 'pinned:trial-1')?.tokens, mandatoryTokens: e.mandatoryTokens, maxInput: e.maxInput, window: 9000 });
        return true;
      },
    );
  });
});
