import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { analyzeTask } from '../../../src/core/task/analyze';
import { hasPointers, nameReason, textReason } from '../../../src/core/task/pointers';
import { counter } from '../helpers';
import { tempDir } from '../offload/results';

describe('source files the task points at', () => {
  const task = 'Incident: checkout fails with "gateway timeout after 2000 ms" since the retry change; GATEWAY_TIMEOUT_MS looks wrong against ADR-0007. Why?';
  const signals = analyzeTask(task);

  it('reads the task: an identifier, a quoted message, an ADR', () => {
    assert.ok(hasPointers(signals));
    assert.equal(nameReason('src/config/GatewayTimeoutMs.java', analyzeTask('why is GatewayTimeoutMs 2000?')), "its name is the task's identifier GatewayTimeoutMs");
    assert.equal(textReason('static final int GATEWAY_TIMEOUT_MS = 2000; // see ADR-7', signals), "holds the task's GATEWAY_TIMEOUT_MS, ADR-0007");
    assert.equal(textReason('throw new Error("gateway timeout after 2000 ms")', signals), 'holds the task\'s "gateway timeout after 2000 ms"');
    assert.equal(textReason('int MY_GATEWAY_TIMEOUT_MS_X = 1;', signals), undefined, 'whole identifiers only');
    assert.equal(hasPointers(analyzeTask('why is the build slow?')), false);
  });

  it('an incident whose cause is a constant with a comment naming the ADR: the file is selected, with the reason', () => {
    const root = tempDir('pointers');
    fs.mkdirSync(path.join(root, 'src', 'config'), { recursive: true });
    fs.mkdirSync(path.join(root, 'src', 'other'), { recursive: true });
    fs.mkdirSync(path.join(root, 'docs', 'adr'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'config', 'Limits.java'), 'package acme.config;\n\npublic final class Limits {\n  // Violates ADR-0007 (timeouts of at most 2 s): raised for the load test and never reverted.\n  public static final int GATEWAY_TIMEOUT_MS = 20000;\n}\n');
    fs.writeFileSync(path.join(root, 'src', 'other', 'Unrelated.java'), 'package acme.other;\n\npublic final class Unrelated {\n  public static final int PAGE_SIZE = 50;\n}\n');
    fs.writeFileSync(path.join(root, 'docs', 'adr', '0007-gateway-timeouts.md'), '# ADR-0007: Gateway timeouts\n\n## Status\n\nAccepted\n\n## Context\n\nCheckout waits on the gateway.\n\n## Decision\n\nThe gateway timeout is at most 2 seconds.\n');
    const a = assemble(loadSnapshot({ root, task, changes: false }), { tokenizer: counter });
    const limits = a.manifest.selected.find((d) => d.source === 'src/config/Limits.java');
    assert.ok(limits, `selected: ${a.manifest.selected.map((d) => d.source).join(', ')}`);
    assert.match(limits.reason, /^relevant: holds the task's GATEWAY_TIMEOUT_MS, ADR-0007/);
    assert.ok(a.blocks.some((b) => b.source === 'src/config/Limits.java' && b.text.includes('GATEWAY_TIMEOUT_MS = 20000')));
    assert.ok(!a.blocks.some((b) => b.source === 'src/other/Unrelated.java'), 'a file the task does not point at is not read');
    assert.ok(a.blocks.some((b) => b.source === 'docs/adr/0007-gateway-timeouts.md'));
  });
});
