import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { maxInput, resolvePolicy } from '../../../src/core/policy';
import { toolOutputFigure } from '../../../src/core/report/tool-output-figure';
import { loadPolicy } from '../../../src/core/sources/snapshot';
import { runCompare } from '../../../src/vscode/worker/compare-run';
import { assembleRequest } from '../../../src/vscode/worker/load';
import { manifestOf } from './fixture';
import { EXAMPLE } from '../helpers';

/**
 * Issue 29, item 5: for the same inputs the panel (and the status bar and the trees, which read the same state) and
 * Compare show the same figures. The panel's inputs hold more than the disk: a pin, an unsaved buffer, the settings'
 * envelope over the policy file's.
 */
describe('one set of numbers: the panel and Compare', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-figures-'));
  fs.cpSync(EXAMPLE, root, { recursive: true });
  const policyFile = path.join(root, '.context', 'policy.yaml');
  const leanFile = path.join(root, '.context', 'policies', 'lean.yaml');
  const compose = (file: string) => resolvePolicy(loadPolicy(root, file), { envelope: { window: 13000 }, source: 'settings' });
  const runbook = fs.readFileSync(path.join(root, 'docs', 'runbook.md'), 'utf8');
  const inputs = {
    root,
    task: path.join(root, 'ticket.md'),
    cwd: root,
    pins: [{ id: 'p1', source: 'docs/runbook.md', startLine: 1, endLine: 8, text: runbook.split('\n').slice(0, 8).join('\n') }],
    buffers: [{ path: 'docs/architecture.md', text: `${fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8')}\n\nUnsaved: the payment gateway times out after 30 s.\n`, mtimeMs: 1 }],
    sessionFile: path.join(root, '.context', 'session.jsonl'),
    editor: { activeFile: 'docs/runbook.md' },
  };
  const options = { model: 'gpt-4o', shape: 'openai' as const };
  const panel = assembleRequest({ snapshot: { ...inputs, policy: compose(policyFile) }, options }, () => {});
  const compareArgs = { root, task: inputs.task, cwd: root, policies: [policyFile, leanFile], sessionFile: inputs.sessionFile, model: 'gpt-4o', shape: 'openai' as const, runs: 1, cases: [], scratch: fs.mkdtempSync(path.join(os.tmpdir(), 'cc-figures-scratch-')) };

  it("the current policy's variant is the panel's request: budget, zones and decisions", async () => {
    const result = await runCompare({ ...compareArgs, inputs, variantPolicies: [compose(policyFile), compose(leanFile)] });
    const [current, lean] = result.variants;
    const m = panel.assembly.manifest;
    assert.equal(m.budget.max_input, 10000);
    assert.deepEqual(current.manifest.budget, m.budget);
    assert.deepEqual(current.manifest.zones, m.zones);
    assert.deepEqual(
      current.manifest.selected.map((s) => [s.source, s.tokens]),
      m.selected.map((s) => [s.source, s.tokens]),
    );
    assert.ok(m.selected.some((s) => s.kind === 'pinned'), 'the pin is in both');
    // The other variant gets the same envelope from the settings, as the panel would if it chose that policy.
    assert.equal(lean.manifest.budget.max_input, maxInput(compose(leanFile)));
  });

  it('read from disk alone (as ctxctl compare reads it), the figures differ: the test can fail', async () => {
    const result = await runCompare(compareArgs);
    const disk = result.variants[0].manifest.budget;
    assert.equal(disk.max_input, 11000);
    assert.notEqual(disk.final, panel.assembly.manifest.budget.final);
  });
});

describe('a tool output says both of its figures', () => {
  const size = 210_188_218;
  it('sent as a trimmed digest: the whole-file estimate and the exact sent count, in one label', () => {
    const m = manifestOf({ trimmed: [{ source: 'app.log', kind: 'tool_result', reason: 'kept 3 of 3 error templates', original_tokens: 84_075_288, original_tokens_exact: false, tokens: 99 }] });
    const f = toolOutputFigure('app.log', size, m, 99);
    assert.deepEqual(f, { whole: 84_075_288, wholeExact: false, sent: 99, how: 'digest', label: 'whole file ~84\u202f075\u202f288 tok; sent as a 99-tok digest' });
  });
  it('not sent because its digest did not fit: the digest figure the panel lists, beside the whole file', () => {
    const m = manifestOf({ rejected: [{ source: 'app.log', kind: 'tool_result', reason: 'not sent: over the budget (46 tokens left, 86 needed even trimmed)', tokens: 86, limit: 'budget' }] });
    assert.equal(toolOutputFigure('app.log', size, m, undefined).label, 'whole file ~84\u202f075\u202f288 tok; not sent (its 86-tok digest did not fit)');
  });
  it('the whole-file estimate is the one the trim would give (bytes at the log ratio), before any assembly', () => {
    assert.equal(toolOutputFigure('app.log', size, undefined, undefined).label, '~84\u202f075\u202f288 tok');
    assert.equal(toolOutputFigure('notes.txt', 360, manifestOf({}), 120).label, '120 tok, sent whole');
  });
});
