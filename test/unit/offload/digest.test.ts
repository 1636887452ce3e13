import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { defaultPolicy } from '../../../src/core/policy';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { counter } from '../helpers';
import { FAILURES, jestRun } from '../trim/fixtures';
import { tempDir } from './results';

const NOW = () => new Date('2026-11-12T10:00:00Z');

describe('an offloaded result keeps its evidence', () => {
  const root = tempDir('digest-ws');
  const outside = tempDir('digest-results');
  const jest = jestRun(1);
  fs.writeFileSync(path.join(outside, 'run_tests.txt'), jest);
  const snapshot = loadSnapshot({ root, task: 'Why do the legacy payment tests fail?', policy: defaultPolicy(), toolResults: [{ name: 'run_tests', file: path.join(outside, 'run_tests.txt') }] });
  const result = assemble(snapshot, { tokenizer: counter, now: NOW });
  const entry = result.manifest.offloaded.find((o) => o.source === 'tool:run_tests')!;
  const sent = result.blocks.find((b) => b.source === 'tool:run_tests')!.text;

  it('a jest run of 1 284 passes and 3 failures, above per_result_tokens, is offloaded byte-identical', () => {
    assert.ok(counter.count(jest) > 12000, `${counter.count(jest)} tokens`);
    assert.equal(entry.rule, 'per_result');
    assert.equal(fs.readFileSync(path.join(root, String(entry.path)), 'utf8'), jest);
  });

  it('the request still shows the 3 failures with their messages, the summary and the path, within the preview budget', () => {
    for (const f of FAILURES) {
      assert.ok(sent.includes(f.test), `failure "${f.test}" in the request`);
      assert.ok(sent.includes(f.message), `message "${f.message}" in the request`);
    }
    assert.match(sent, /Tests: +3 failed, 1284 passed, 1287 total/);
    assert.ok(sent.includes(String(entry.path)));
    assert.match(sent, /^evidence digest \(test: /m);
    assert.match(String(entry.preview), /^evidence digest within offload\.preview_tokens 600: test: /);
    assert.ok(Number(entry.context_tokens) <= 600 + 250, `${entry.context_tokens} tokens in the context`);
    assert.ok(result.serialized.includes('paymentMethod is required'));
  });
});
