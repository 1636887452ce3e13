import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { policyEntryAt, ruleAt } from '../../../src/view-model/rule-location';
import { EXAMPLE } from '../helpers';

describe('view model: where Edit rule and Open policy line put the cursor', () => {
  const example = fs.readFileSync(path.join(EXAMPLE, '.context', 'policy.yaml'), 'utf8');

  it("the example's flow-style envelope and mandatory list: the entry's own line and column", () => {
    assert.deepEqual(policyEntryAt(example, 'builtin:envelope'), { line: 2, column: 13 });
    assert.deepEqual(policyEntryAt(example, 'builtin:system'), { line: 3, column: 13 });
    assert.deepEqual(policyEntryAt(example, 'builtin:tools'), { line: 3, column: 34 });
  });

  it('block style: the indented key, the `- item` below the list key; a comment is not a key', () => {
    const text = ['# window: 1 in a comment', 'envelope:', '  window: 9000 # the model', 'mandatory:', '  - tool_definitions', '  - system_instructions', 'index: { max_tokens: 400 }'].join('\n');
    assert.deepEqual(policyEntryAt(text, 'builtin:envelope'), { line: 3, column: 3 });
    assert.deepEqual(policyEntryAt(text, 'builtin:system'), { line: 6, column: 5 });
    assert.deepEqual(policyEntryAt(text, 'builtin:index'), { line: 7, column: 1 });
  });

  it('a key the policy does not set: undefined (the top of the file); a kind not in the list: the list key', () => {
    assert.equal(policyEntryAt('zones: {}\n', 'builtin:envelope'), undefined);
    assert.deepEqual(policyEntryAt('mandatory: [current_task]\n', 'builtin:system'), { line: 1, column: 1 });
  });

  it('an instruction file: its first rule line after the front matter and blank lines; a pinned range: its first line', () => {
    const file = ['---', 'alwaysApply: true', '---', '', '   - Use ./mvnw, never mvn.', ''].join('\n');
    const rules = [{ path: '.cursor/rules/build.mdc', bodyLine: 4 }];
    assert.deepEqual(ruleAt('.cursor/rules/build.mdc', rules, file), { line: 5, column: 4 });
    assert.deepEqual(ruleAt('docs/runbook.md#L12-L20', rules), { line: 12, column: 1 });
    assert.equal(ruleAt('docs/runbook.md', rules), undefined);
  });
});
