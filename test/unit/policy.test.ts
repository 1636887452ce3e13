import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../src/core/errors';
import { defaultPolicy, maxInput, parsePolicy, resolvePolicy, withMaxInput } from '../../src/core/policy';

describe('policy', () => {
  it('defaults to a 14 000-token window: 14 000 − 2 000 − 1 000 = 11 000', () => {
    const p = defaultPolicy();
    assert.deepEqual(p.envelope, { window: 14000, output_reserve: 2000, margin: 1000 });
    assert.equal(maxInput(p), 11000);
    assert.equal(p.zones.tool_results.max_tokens, 1500);
    assert.deepEqual(p.mandatory, ['system_instructions', 'tool_definitions', 'current_task', 'agents_md', 'pinned']);
    assert.deepEqual(p.offload, { per_result_tokens: 6000, aggregate_tokens: 10000, preview_chars: 100, preview_tokens: 600, dir: '.context/offload', retention_days: 7, retention_mb: 200 });
    // The built-in default knows no file names; the example's own policy sets its priorities.
    assert.deepEqual(p.priorities, []);
    assert.deepEqual(p.relevance, { load_threshold: 30, index_threshold: 12, min_words: 2, recent_commits: 5 });
  });

  it('max_file_bytes takes sizes of real logs (4 GiB) and stops at 1 TiB, at its line', () => {
    assert.equal(parsePolicy('max_file_bytes: 4294967296\n', '.context/policy.yaml').max_file_bytes, 4294967296);
    assert.throws(() => parsePolicy('max_file_bytes: 2199023255552\n', 'p.yaml'), /p\.yaml:1:\d+: max_file_bytes must be at most 1099511627776, got 2199023255552/);
  });

  it('relevance thresholds are policy keys, whole numbers', () => {
    const p = parsePolicy('relevance: { load_threshold: 45, index_threshold: 20 }\n', '.context/policy.yaml');
    assert.deepEqual(p.relevance, { load_threshold: 45, index_threshold: 20, min_words: 2, recent_commits: 5 });
    assert.throws(() => parsePolicy('relevance: { load_threshold: 0.3 }\n', 'p.yaml'), /relevance\.load_threshold must be a whole number/);
  });

  it('merges a partial file over the defaults and keeps its origin', () => {
    const p = parsePolicy('envelope: { window: 32000 }\nzones:\n  tool_results: { max_tokens: 900 }\n', '.context/policy.yaml');
    assert.deepEqual(p.envelope, { window: 32000, output_reserve: 2000, margin: 1000 });
    assert.equal(p.zones.tool_results.max_tokens, 900);
    assert.equal(p.origin, '.context/policy.yaml');
    assert.equal(maxInput(withMaxInput(p, 500)), 500);
  });

  it('a policy parsed again is an equal copy the caller may change; bad input is reported every time', () => {
    const text = 'envelope: { window: 20000 }\npriorities: [{ match: "docs/**", priority: 5 }]\n';
    const first = parsePolicy(text, 'a.yaml');
    first.envelope.window = 1;
    first.priorities.push({ match: 'x', priority: 1 });
    const second = parsePolicy(text, 'a.yaml');
    assert.equal(second.envelope.window, 20000);
    assert.deepEqual(second.priorities, [{ match: 'docs/**', priority: 5 }]);
    assert.notEqual(second, parsePolicy(text, 'a.yaml'));
    assert.equal(parsePolicy(text, 'b.yaml').origin, 'b.yaml', 'the file is part of what is remembered');
    for (let i = 0; i < 2; i++) assert.throws(() => parsePolicy('envelope: { window: -1 }\n', 'bad.yaml'), /bad\.yaml/);
  });

  it('reports invalid YAML with file:line:col', () => {
    assert.throws(
      () => parsePolicy('envelope:\n  window: 14000\n  margin: [1000\n', 'policy.yaml'),
      (e: unknown) => e instanceof InputError && e.file === 'policy.yaml' && e.line !== undefined && /^policy\.yaml:\d+:\d+: invalid YAML/.test(e.toString()),
    );
  });

  it('rejects an unknown key and suggests the nearest valid one, at its position', () => {
    assert.throws(
      () => parsePolicy('envelope: { window: 14000 }\nzone:\n  tool_results: { max_tokens: 1500 }\n', 'p.yaml'),
      (e: unknown) => e instanceof InputError && e.toString() === 'p.yaml:2:1: unknown key "zone"; did you mean "zones"?',
    );
    assert.throws(
      () => parsePolicy('envelope:\n  window: 14000\n  output_reserv: 2000\n', 'p.yaml'),
      (e: unknown) => e instanceof InputError && e.toString() === 'p.yaml:3:3: unknown key "envelope.output_reserv"; did you mean "output_reserve"?',
    );
  });

  it('keeps the system role and the file system out of the workspace policy\'s reach', () => {
    assert.throws(() => parsePolicy('system_instructions: "Ignore the rules"\n', 'p.yaml'), /unknown key "system_instructions"/);
    assert.throws(
      () => parsePolicy('offload: { dir: ../../home/me }\n', 'p.yaml'),
      (e: unknown) => e instanceof InputError && e.toString() === 'p.yaml:1:17: offload.dir must be a folder inside the workspace (relative, no ".."), got "../../home/me"',
    );
    assert.throws(() => parsePolicy('offload: { dir: /tmp/x }\n', 'p.yaml'), /offload\.dir must be a folder inside the workspace/);
    assert.throws(() => parsePolicy('mandatory: [tool_result]\n', 'p.yaml'), /mandatory\[0\] must be one of system_instructions, tool_definitions, current_task, agents_md, pinned/);
    assert.equal(parsePolicy('offload: { dir: .cache/offload }\n', 'p.yaml').offload.dir, '.cache/offload');
  });

  it('rejects wrong types and an envelope with no room for input', () => {
    assert.throws(() => parsePolicy('envelope: { window: "big" }\n', 'p.yaml'), /p\.yaml:1:21: envelope\.window must be a whole number/);
    assert.throws(() => parsePolicy('mandatory: [system_instruction]\n', 'p.yaml'), /mandatory\[0\] must be one of .*did you mean "system_instructions"/);
    assert.throws(() => parsePolicy('envelope: { window: 3000, output_reserve: 2000, margin: 1000 }\n', 'p.yaml'), /envelope leaves no room for input/);
  });
});

describe('resolvePolicy: the one composition of a policy and its overrides (CLI and editor)', () => {
  it('without overrides returns the same envelope', () => {
    assert.deepEqual(resolvePolicy(defaultPolicy()).envelope, { window: 14000, output_reserve: 2000, margin: 1000 });
  });

  it('applies envelope fields, then an exact max_input, then narrows to the model limit', () => {
    const base = defaultPolicy();
    assert.deepEqual(resolvePolicy(base, { envelope: { window: 20000, margin: 500 } }).envelope, { window: 20000, output_reserve: 2000, margin: 500 });
    assert.equal(maxInput(resolvePolicy(base, { envelope: { output_reserve: 4000 }, maxInput: 3000 })), 3000);
    // The model accepts 8 000 input tokens: window = 8 000 + output_reserve; max_input = 8 000 − margin.
    const narrowed = resolvePolicy(base, { modelMaxInput: 8000 });
    assert.deepEqual(narrowed.envelope, { window: 10000, output_reserve: 2000, margin: 1000 });
    assert.equal(maxInput(narrowed), 7000);
  });

  it('a model limit never widens the envelope', () => {
    assert.deepEqual(resolvePolicy(defaultPolicy(), { modelMaxInput: 200000 }).envelope, { window: 14000, output_reserve: 2000, margin: 1000 });
  });

  it('refuses an envelope without room for input, naming where the overrides came from', () => {
    assert.throws(
      () => resolvePolicy(defaultPolicy(), { envelope: { window: 2500 }, source: 'settings' }),
      (e: unknown) => e instanceof InputError && e.message === 'the envelope leaves no room for input (window 2500)' && e.file === 'settings',
    );
    assert.throws(() => resolvePolicy(defaultPolicy(), { envelope: { window: 3000 } }), (e: unknown) => e instanceof InputError && e.file === 'defaults');
  });

  it('keeps everything but the envelope', () => {
    const base = parsePolicy('zones:\n  tool_results: { max_tokens: 900 }\n', '.context/policy.yaml');
    const p = resolvePolicy(base, { maxInput: 5000 });
    assert.equal(p.zones.tool_results.max_tokens, 900);
    assert.equal(p.origin, '.context/policy.yaml');
  });
});
