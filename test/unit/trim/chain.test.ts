import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { retrim, trimToolOutputs } from '../../../src/core/chain/trim';
import { defaultPolicy } from '../../../src/core/policy';
import { fileLines } from '../../../src/core/sources/scan';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { estimateBySample } from '../../../src/core/tokens-sample';
import { block, counter, EXAMPLE } from '../helpers';
import { tempDir } from '../offload/results';

const NOW = () => new Date('2026-11-12T10:00:00Z');

describe('the trim stage in the chain', () => {
  it('the example: application.log is trimmed to at most 1 500 tokens and says so, with the same figures in the manifest; its original size (976 KB, over 64 KiB) is an estimate from a counted sample, flagged', () => {
    const snapshot = loadSnapshot({ root: EXAMPLE, task: path.join(EXAMPLE, 'ticket.md') });
    const result = assemble(snapshot, { tokenizer: counter, now: NOW });
    const entry = result.manifest.trimmed.find((t) => t.source === 'application.log');
    const selected = result.manifest.selected.find((s) => s.source === 'application.log');
    const kept = result.blocks.find((b) => b.source === 'application.log');
    assert.ok(entry && selected && kept);
    const whole = [...fileLines(path.join(EXAMPLE, 'application.log'))].join('\n');
    assert.deepEqual(
      { ...entry, reason: undefined, retained_lines: undefined, tokens: undefined },
      { source: 'application.log', kind: 'tool_result', reason: undefined, trimmed: true, original_lines: 5543, retained_lines: undefined, original_tokens: estimateBySample(counter, whole).tokens, original_tokens_exact: false, tokens: undefined, reference: 'application.log', format: 'log', format_from: 'content', dialect: { name: 'spring-boot', confidence: 1 }, share: 1500,
        evidence: { error_lines: 11, warning_lines: 34, error_templates: 3, warning_templates: 8 },
        templates: { errors: 3, warnings: 8, kept_errors: 3, kept_warnings: 8 } },
    );
    assert.ok(Number(entry.tokens) <= 1500, `${entry.tokens} tokens`);
    assert.equal(selected.tokens, entry.tokens, 'the manifest counts the block as sent, tag and notice included');
    assert.deepEqual(kept.meta.trim, { trimmed: true, original_lines: 5543, retained_lines: entry.retained_lines, original_tokens: entry.original_tokens, original_tokens_exact: false, tokens: entry.tokens, reference: 'application.log', format: 'log' });
    const exact = counter.count(whole);
    assert.ok(Math.abs(Number(entry.original_tokens) - exact) <= exact * 0.03, `estimate ${entry.original_tokens} vs exact ${exact}`);
    assert.ok(result.serialized.includes(`original-tokens=\\"~${entry.original_tokens}\\"`), 'the request (JSON) flags the estimate in the tag');
    assert.ok(result.serialized.includes(`[trimmed: ${entry.retained_lines} of 5543 lines kept; the full output is at application.log]`));
    assert.match(result.trace, new RegExp(`application\\.log +TRIMMED +~\\d{3}\u202f\\d{3} → \\d\u202f\\d{3} +\\(${entry.retained_lines} of 5\u202f543 lines\\)`));
  });

  it('a tool output over 1 MiB is never tokenized whole: its original size is an estimate, flagged', () => {
    const root = tempDir('big');
    const lines = Array.from({ length: 20000 }, (_, i) => `2026-11-12T09:00:00.000Z  INFO 1 --- [w] c.a.Job : [corr=row-${100000 + i}] processed row ${i} of the nightly export`);
    lines[12345] = '2026-11-12T09:00:01.000Z ERROR 1 --- [w] c.a.Job : [corr=job-777777] export failed: disk full';
    fs.writeFileSync(path.join(root, 'export.log'), lines.join('\n') + '\n');
    const size = fs.statSync(path.join(root, 'export.log')).size;
    assert.ok(size > 1 << 20);
    const out = trimToolOutputs([{ path: 'export.log', size, lines: () => fileLines(path.join(root, 'export.log')) }], defaultPolicy(), counter);
    const [entry] = out.decisions.trimmed ?? [];
    // Estimated from the size at the measured ratio of logs (estimate.ts: 2.5 characters per token), not counted.
    assert.equal(entry.original_tokens, Math.ceil(size / 2.5));
    assert.equal(entry.original_tokens_exact, false);
    assert.equal(entry.original_lines, 20000);
    assert.ok(out.value[0].text.includes('[corr=job-777777] export failed: disk full'));
    const snapshot = loadSnapshot({ root, task: 'Why did the export fail?' });
    assert.match(assemble(snapshot, { tokenizer: counter, now: NOW }).trace, /export\.log +TRIMMED +~\d{3}\u202f\d{3} → /);
  });

  it('outputs without evidence get a glance each, then share what is left by priority; an offloaded notice is not trimmed again', () => {
    const policy = { ...defaultPolicy(), priorities: [{ match: 'a.log', priority: 90 }, { match: 'b.log', priority: 30 }] };
    const text = Array.from({ length: 3000 }, (_, i) => `2026-11-12T09:00:00.000Z  INFO step ${i} done`).join('\n');
    const input = (p: string) => ({ path: p, size: text.length, lines: () => text.split('\n') });
    const out = trimToolOutputs([input('a.log'), input('b.log')], policy, counter);
    // 80 each first (the glance), then the 1 340 left, 3 to 1.
    assert.deepEqual(out.decisions.trimmed?.map((t) => t.share), [80 + 1005, 80 + 335]);
    assert.ok(out.value[0].tokens <= 1085 && out.value[1].tokens <= 415);
    const notice = block('tool_result', 'tool:search', '[offloaded: …]', { meta: { offload: { path: '.context/offload/search-0123456789ab.json', tokens: 9000 } } });
    assert.equal(retrim(notice, 10, policy, counter, () => ['x']), undefined);
  });

  it('classifies tool output by the default globs, and by the policy\'s own globs with a format each', () => {
    const root = tempDir('classify');
    const files = ['app.log', 'logs/worker.txt', 'test-results/run.json', 'reports/junit-payments.xml', 'ci/TEST-PaymentTest.xml', 'node-test.tap', 'reports/run.txt', 'docs/notes.md'];
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      fs.writeFileSync(path.join(root, f), 'x\n');
    }
    const policy = { ...defaultPolicy(), tool_output: { ...defaultPolicy().tool_output, formats: [{ match: 'reports/*.txt', format: 'test' }] } };
    const snapshot = loadSnapshot({ root, task: 'x', policy });
    assert.deepEqual(
      snapshot.toolOutputs.map((o) => [o.path, o.format]),
      [['app.log', undefined], ['ci/TEST-PaymentTest.xml', undefined], ['logs/worker.txt', undefined], ['node-test.tap', undefined], ['reports/junit-payments.xml', undefined], ['reports/run.txt', 'test'], ['test-results/run.json', undefined]],
    );
  });
});
