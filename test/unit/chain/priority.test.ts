import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { priorityFor } from '../../../src/core/chain/collect';
import { defaultPolicy } from '../../../src/core/policy';

describe('priorityFor', () => {
  const policy = {
    ...defaultPolicy(),
    priorities: [
      { match: 'docs/adr/**', priority: 70 },
      { match: 'docs/**', priority: 20 },
      { match: 'README.md', priority: 90 },
      { match: 'notes/[draft].md', priority: 5 },
    ],
  };

  it('takes the first rule that matches, by glob or by the very path, else the kind, and a block’s own first', () => {
    assert.equal(priorityFor(policy, 'docs/adr/0001-ledger.md', 'decision'), 70);
    assert.equal(priorityFor(policy, 'docs/guide.md', 'document'), 20);
    assert.equal(priorityFor(policy, 'docs/.hidden/notes.md', 'document'), 20, 'dot files match');
    assert.equal(priorityFor(policy, 'README.md', 'document'), 90);
    assert.equal(priorityFor(policy, 'notes/[draft].md', 'document'), 5, 'a path equal to the rule, read as a glob or not');
    assert.equal(priorityFor(policy, 'notes/d.md', 'document'), 5, 'the same rule as a glob');
    assert.equal(priorityFor(policy, 'src/app.ts', 'source_code'), 50);
    assert.equal(priorityFor(policy, 'src/app.log', 'tool_result'), 50);
    assert.equal(priorityFor(policy, 'misc/x', 'current_task'), 0);
    assert.equal(priorityFor(policy, 'docs/guide.md', 'document', 3), 3);
  });

  it('follows a new list of rules (a policy parsed again), asked in the same process', () => {
    assert.equal(priorityFor(policy, 'docs/guide.md', 'document'), 20);
    const other = { ...policy, priorities: [{ match: 'docs/*.md', priority: 33 }] };
    assert.equal(priorityFor(other, 'docs/guide.md', 'document'), 33);
    assert.equal(priorityFor(other, 'docs/adr/0001-ledger.md', 'decision'), 60);
    assert.equal(priorityFor({ ...policy, priorities: [] }, 'docs/guide.md', 'document'), 40);
    assert.equal(priorityFor(policy, 'docs/guide.md', 'document'), 20);
  });
});
