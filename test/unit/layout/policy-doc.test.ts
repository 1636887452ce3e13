// docs/policy.md is the policy's reference: every key the parser accepts has a row there, and every row names a key
// the parser accepts, so the page cannot fall behind the schema (or invent a key) unnoticed.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { policyKeys } from '../../../src/core/policy';

const root = path.resolve(__dirname, '..', '..', '..', '..');

/** The key paths a row's first cell names: `a.b`, or `a.b`, `c`, `d` (siblings of the first). */
function rowKeys(cell: string): string[] {
  const names = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  if (names.length === 0) return [];
  const first = names[0];
  const parent = first.includes('.') ? first.slice(0, first.lastIndexOf('.') + 1) : '';
  return names.map((n, i) => (i === 0 || n.includes('.') ? n : parent + n));
}

function documentedKeys(): string[] {
  const text = fs.readFileSync(path.join(root, 'docs', 'policy.md'), 'utf8');
  const table = text.slice(text.indexOf('## Every key'));
  return table.split('\n').filter((l) => l.startsWith('| `')).flatMap((l) => rowKeys(l.split('|')[1]));
}

describe('docs/policy.md', () => {
  it('has one row for every key the policy file accepts, and no other', () => {
    const accepted = policyKeys().map((k) => k.replace(/\[\]\..*$/, '')).filter((k, i, all) => all.indexOf(k) === i);
    const documented = documentedKeys();
    assert.deepEqual([...new Set(documented)].sort(), accepted.sort());
  });

  it('reads sibling keys listed in one row as children of the first one’s parent', () => {
    assert.deepEqual(rowKeys('`sources.agents_md`, `claude_md`, `cline`'), ['sources.agents_md', 'sources.claude_md', 'sources.cline']);
    assert.deepEqual(rowKeys('`priorities`'), ['priorities']);
  });
});
