import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { checkReason, evaluateCorpus, templatesKept } from '../../../src/core/trim/evaluate';
import { retrim, trimToolOutputs } from '../../../src/core/chain/trim';
import { defaultPolicy } from '../../../src/core/policy';
import { fileLines } from '../../../src/core/sources/scan';
import { counter } from '../helpers';

const CORPUS = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'tool-output');

/**
 * Floors per format, at the default policy (the figures `npm run eval` prints; a floor is the measured share, so a
 * regression on any one system fails here). Ground truth: test/fixtures/tool-output/NAME.truth.json.
 */
const FLOORS: Record<string, [kept: number, total: number]> = {
  android: [6, 6],
  'apache-error': [6, 6],
  bgl: [8, 8],
  'github-actions': [6, 6],
  hadoop: [6, 6],
  hdfs: [6, 6],
  healthapp: [6, 6],
  hpc: [6, 6],
  klog: [5, 5],
  'linux-syslog': [6, 6],
  mac: [6, 7],
  openssh: [10, 10],
  openstack: [6, 6],
  'pino-jsonl': [5, 5],
  proxifier: [4, 4],
  spark: [6, 6],
  'windows-cbs': [6, 6],
  zookeeper: [7, 7],
};

describe('the tool-output corpus at the default policy (npm run eval)', () => {
  const rows = evaluateCorpus(CORPUS, defaultPolicy(), counter);

  it('covers at least 15 formats of 2 000+ lines each, all of them with a floor', () => {
    assert.deepEqual(rows.map((r) => r.system).sort(), Object.keys(FLOORS).sort());
    for (const r of rows) assert.ok(r.lines >= 2000, `${r.system}: ${r.lines} lines`);
  });

  for (const [system, [kept, total]] of Object.entries(FLOORS)) {
    it(`${system}: keeps at least ${kept} of its ${total} error and warning templates, within the 1 500-token zone`, () => {
      const r = rows.find((x) => x.system === system)!;
      assert.equal(r.total, total);
      assert.ok(r.kept >= kept, `${system}: ${r.kept} of ${r.total}; missing:\n${r.missing.join('\n')}`);
      assert.ok(r.tokensAfter <= 1500, `${r.tokensAfter} tokens`);
      assert.ok(r.kept / r.total >= 0.75);
    });
  }

  it('keeps at least 90 % of the error and warning templates across the corpus', () => {
    const kept = rows.reduce((n, r) => n + r.kept, 0);
    const total = rows.reduce((n, r) => n + r.total, 0);
    assert.ok(kept / total >= 0.9, `${kept} of ${total}`);
  });

  it('every reason\'s figures are those of the text sent (templates kept per severity, lines, templates left out)', () => {
    for (const r of rows) {
      assert.ok(r.reasonChecked >= 2, `${r.system}: ${r.note}`);
      assert.equal(r.reasonRight, r.reasonChecked, `${r.system}: ${r.note}`);
    }
  });
});

describe('the evaluation itself', () => {
  it('finds a template in a row or a verbatim line, and not when a fixed word differs', () => {
    const text = ['  E ×3 (first Jun 14 23:50:57, last Jun 16 19:06:43): Invalid user admin from 10.1.2.3', 'Jun 14 23:50:58 LabSZ sshd[24200]: Failed password for root from 10.1.2.3 port 22 ssh2'].join('\n');
    const truth = [
      { severity: 'error' as const, template: 'Invalid user <*> from <*>' },
      { severity: 'error' as const, template: 'Failed password for root from <*> port <*> ssh2' },
      { severity: 'error' as const, template: 'Failed password for invalid user <*> from <*> port <*> ssh2' },
    ];
    const { kept, missing } = templatesKept(text, truth);
    assert.deepEqual(kept.map((t) => t.template), ['Invalid user <*> from <*>', 'Failed password for root from <*> port <*> ssh2']);
    assert.deepEqual(missing.map((t) => t.template), ['Failed password for invalid user <*> from <*> port <*> ssh2']);
  });

  it('catches a reason whose figures are not those of the text', () => {
    const text = ['  E ×2 (at x): boom', '  W ×1 (at y): slow', '… 1 more template left out to fit the budget: inspect with …', '', 'line a', '… 3 lines omitted'].join('\n');
    assert.deepEqual(checkReason('kept 1 of 1 error templates and 1 of 2 warning templates (1 lines); 1 template left out: inspect with …', text), { checked: 4, right: 4 });
    assert.deepEqual(checkReason('kept 1 of 1 error templates and 2 of 2 warning templates (3 lines)', text), { checked: 3, right: 1 });
  });
});

describe('a tool result trimmed again by enforce', () => {
  it('carries the new trimmer account, whose figures are those of its smaller text', () => {
    const abs = path.join(CORPUS, 'openssh.log');
    const lines = () => fileLines(abs);
    const policy = defaultPolicy();
    const first = trimToolOutputs([{ path: 'openssh.log', size: fs.statSync(abs).size, lines }], policy, counter);
    const again = retrim(first.value[0], 300, policy, counter, lines)!;
    assert.ok(again.tokens <= 300 && again.tokens < first.value[0].tokens);
    const note = String(again.meta.retrimNote);
    assert.notEqual(note, first.decisions.trimmed?.[0].reason);
    const figures = checkReason(note, again.text);
    assert.ok(figures.checked >= 2, note);
    assert.equal(figures.right, figures.checked, note);
  });
});
