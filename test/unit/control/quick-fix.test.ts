import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileFixes, settingsFileKind } from '../../../src/core/file-fixes';
import { InputError } from '../../../src/core/errors';
import { parsePolicy } from '../../../src/core/policy';
import { entryProblems, problemsOf } from '../../../src/core/problems';
import { applyFix, fixApplies } from '../../../src/core/quick-fix';

const none = () => false;
/** The text after the first fix of a file, and that fix's title and place. */
const fixed = (file: string, text: string, exists: (rel: string) => boolean = none) => {
  const [f] = fileFixes(file, text, exists);
  assert.ok(f, `no fix for ${file}`);
  return { text: applyFix(f.fix, text), title: f.fix.title, kind: f.fix.kind, line: f.line, column: f.column, message: f.message };
};

describe('quick fixes of the settings files', () => {
  it('which file is which', () => {
    assert.deepEqual(
      ['.context/policy.yaml', '.context/lean.yml', '.context/policies/wide.yaml', '.context/pins.json', '.context/overrides.json', '.context/checks.yaml', 'docs/policy.yaml', '.context/session.jsonl'].map(settingsFileKind),
      ['policy', 'policy', 'policy', 'pins', 'overrides', 'checks', undefined, undefined],
    );
  });

  it('policy: an unknown key is replaced by the suggestion, at its line and column', () => {
    const r = fixed('.context/policy.yaml', 'envelope: { window: 9000 }\nzone:\n  tool_results: { max_tokens: 900 }\n');
    assert.equal(r.message, 'unknown key "zone"; did you mean "zones"?');
    assert.deepEqual([r.kind, r.title, r.line, r.column], ['replace', 'Replace "zone" with "zones"', 2, 1]);
    assert.equal(r.text, 'envelope: { window: 9000 }\nzones:\n  tool_results: { max_tokens: 900 }\n');
    assert.equal(parsePolicy(r.text, 'p').zones.tool_results.max_tokens, 900);
  });

  it('policy: a nested or quoted key keeps its quotes', () => {
    assert.equal(fixed('.context/policy.yaml', 'envelope:\n  "windo": 9000\n').text, 'envelope:\n  "window": 9000\n');
  });

  it('policy: an out-of-range number is clamped to the nearest allowed value', () => {
    const low = fixed('.context/policy.yaml', 'envelope: { window: 0, output_reserve: 10, margin: 10 }\n');
    assert.deepEqual([low.kind, low.title, low.text], ['clamp', 'Change envelope.window to 1 (the least allowed)', 'envelope: { window: 1, output_reserve: 10, margin: 10 }\n']);
    const high = fixed('.context/policy.yaml', 'priorities:\n  - { match: "a.md", priority: -5000 }\n');
    assert.equal(high.text, 'priorities:\n  - { match: "a.md", priority: -1000 }\n');
    const big = fixed('.context/policy.yaml', 'envelope:\n  window: 200000000\n');
    assert.deepEqual([big.title, big.text], ['Change envelope.window to 100000000 (the most allowed)', 'envelope:\n  window: 100000000\n']);
  });

  it('policy: an enum value gets its nearest value', () => {
    assert.equal(fixed('.context/policy.yaml', 'mandatory: [system_instructions, pinnd]\n').text, 'mandatory: [system_instructions, pinned]\n');
  });

  it('policy: an error with no obvious fix offers none', () => {
    assert.deepEqual(fileFixes('.context/policy.yaml', 'envelope: [1, 2]\n', none), []);
    assert.deepEqual(fileFixes('.context/policy.yaml', 'envelope: { window: 9000 }\n', none), []);
  });

  it('checks.yaml: an unknown key of a case and of its answer', () => {
    const c = fixed('.context/checks.yaml', '- name: a\n  task: t\n  contans: [x]\n');
    assert.deepEqual([c.title, c.line, c.column, c.text], ['Replace "contans" with "contains"', 3, 3, '- name: a\n  task: t\n  contains: [x]\n']);
    assert.equal(fixed('.context/checks.yaml', '- name: a\n  task: t\n  answer: { citse: [x] }\n').text, '- name: a\n  task: t\n  answer: { cites: [x] }\n');
  });

  it('overrides.json: an unknown key, a wrong version, an entry naming nothing', () => {
    const k = fixed('.context/overrides.json', '{"inclde": ["a.md"]}');
    assert.deepEqual([k.message, k.text], ['unknown key "inclde"; did you mean "include"? (keys: version, include, exclude)', '{"include": ["a.md"]}']);
    assert.equal(fixed('.context/overrides.json', '{"version": 2, "include": []}').text, '{"version": 1, "include": []}');
    const text = '{\n  "include": ["docs/a.md", "gone.md"],\n  "exclude": ["old/"]\n}\n';
    const exists = (rel: string) => rel === 'docs/a.md' || rel === 'old';
    const fixes = fileFixes('.context/overrides.json', text, exists);
    assert.deepEqual(
      fixes.map((f) => [f.line, f.column, f.length, f.message, f.fix.kind, f.fix.title]),
      [[2, 28, 9, 'include entry 2: "gone.md" is not a file or folder of this workspace: it has no effect', 'remove', 'Remove "gone.md" from .context/overrides.json']],
    );
    assert.deepEqual(JSON.parse(applyFix(fixes[0].fix, text)), { include: ['docs/a.md'], exclude: ['old/'] });
  });

  it('pins.json: a pin whose source is gone is removed whole', () => {
    const text = '[\n  { "source": "a.md", "text": "" },\n  { "source": "../etc/passwd", "text": "x" }\n]\n';
    const fixes = fileFixes('.context/pins.json', text, (rel) => rel === 'a.md');
    assert.deepEqual(fixes.map((f) => [f.line, f.message]), [[3, 'pin 2: source "../etc/passwd" is not a file or folder of this workspace: it has no effect']]);
    assert.deepEqual(JSON.parse(applyFix(fixes[0].fix, text)), [{ source: 'a.md', text: '' }]);
  });

  it('a fix is not applied to text that moved', () => {
    const [f] = fileFixes('.context/policy.yaml', 'zone: {}\n', none);
    assert.equal(fixApplies(f.fix, 'zone: {}\n'), true);
    assert.equal(fixApplies(f.fix, '# a comment\nzone: {}\n'), false);
  });

  it('the diagnostics carry the fix: the policy error and the entries naming nothing', () => {
    let error: unknown;
    try {
      parsePolicy('zone: {}\n', '.context/policy.yaml');
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof InputError);
    const [p] = problemsOf([], error, () => true);
    assert.deepEqual([p.file, p.line, p.column, p.severity, p.fix?.title], ['.context/policy.yaml', 1, 1, 'error', 'Replace "zone" with "zones"']);
    const files: Record<string, string> = { '.context/overrides.json': '{"exclude": ["nope.md"]}' };
    const entries = entryProblems((rel) => files[rel], none);
    assert.deepEqual(entries.map((e) => [e.file, e.line, e.column, e.severity, e.fix?.kind]), [['.context/overrides.json', 1, 14, 'warning', 'remove']]);
  });
});
