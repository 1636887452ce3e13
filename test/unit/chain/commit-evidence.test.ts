import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ContextEngine } from '../../../src/core/engine';
import { diskHost } from '../../../src/host/disk';
import { commitNote, indexBlock, isIndexable } from '../../../src/core/chain/index-block';
import { makeBlock } from '../../../src/core/chain/collect';
import { defaultPolicy } from '../../../src/core/policy';

const DEFAULT_POLICY = defaultPolicy();

function git(dir: string, args: string[]): string {
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgsign=false', '-C', dir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Fixture', GIT_AUTHOR_EMAIL: 'fixture@example.com', GIT_COMMITTER_NAME: 'Fixture', GIT_COMMITTER_EMAIL: 'fixture@example.com', GIT_AUTHOR_DATE: '2026-11-01T10:00:00Z', GIT_COMMITTER_DATE: '2026-11-01T10:00:00Z' },
  });
}

const FILLER = (topic: string) => Array.from({ length: 30 }, (_, i) => `The ${topic} paragraph ${i} says how payments are confirmed and retried by the service.`).join('\n');

/** The workspace's files before the commit that touches every one of them (it adds a line naming confirmPayment). */
const FILES: Record<string, string> = {
  'docs/adr/0001-confirm-payments-synchronously.md': `# 1. Confirm payments synchronously\n\nStatus: superseded by ADR-0002\n\n## Context\n\n${FILLER('old decision')}\n\n## Decision\n\nWe call the provider synchronously.\n`,
  'docs/adr/0002-confirm-payments-through-webhooks.md': `# 2. Confirm payments through webhooks\n\nStatus: accepted\n\nSupersedes ADR-0001\n\n## Context\n\n${FILLER('new decision')}\n\n## Decision\n\nThe provider calls our webhook.\n`,
  'docs/payments.md': `# Payments\n\n${FILLER('payments guide')}\n`,
  'docs/retries.md': `# Retries\n\n${FILLER('retries guide')}\n`,
  'docs/webhooks.md': `# Webhooks\n\n${FILLER('webhooks guide')}\n`,
  'src/payments/confirm.ts': `export function confirmPayment(id: string) {\n  return id;\n}\n${Array.from({ length: 40 }, (_, i) => `export const step${i} = ${i}; // payments confirm step`).join('\n')}\n`,
  'src/payments/retry.ts': `export function retryPayment(id: string) {\n  return id;\n}\n${Array.from({ length: 40 }, (_, i) => `export const retry${i} = ${i}; // payments retry step`).join('\n')}\n`,
};

/** A workspace with two commits: the files, then one commit that touched every file (each gains a line naming confirmPayment). */
function workspace(): { dir: string; head: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-commit-evidence-'));
  for (const [p, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'Initial import']);
  for (const p of Object.keys(FILES)) fs.appendFileSync(path.join(dir, p), p.endsWith('.ts') ? '// confirmPayment: timeout raised to 30 s\n' : '\nconfirmPayment now times out after 30 s.\n');
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'Raise the confirmPayment timeout everywhere']);
  return { dir, head: git(dir, ['rev-parse', '--short=7', 'HEAD']).trim() };
}

/** The paths `<available-documents>` lists in the context text. */
function indexPaths(text: string): string[] {
  const block = /<available-documents[^>]*>([\s\S]*?)<\/available-documents>/.exec(text)?.[1] ?? '';
  return [...block.matchAll(/path="([^"]+)"/g)].map((m) => m[1]);
}

describe('the index lists only what read_document fetches', () => {
  it('after a commit that touched every file: every path in <available-documents> is read, none refused', () => {
    const { dir, head } = workspace();
    try {
      const answer = new ContextEngine(diskHost, dir).tools.assembleContext({ task: 'Why does confirmPayment time out when the provider is slow?', max_input: 3100 });
      assert.equal(answer.isError, false, answer.text);
      const listed = indexPaths(answer.text);
      // Before: docs/adr/0001-confirm-payments-synchronously.md (superseded) and docs/retries.md@<head> were listed too.
      assert.deepEqual(listed, ['docs/payments.md', 'docs/retries.md', 'docs/webhooks.md', 'src/payments/confirm.ts', 'src/payments/retry.ts']);
      for (const p of listed) {
        const read = new ContextEngine(diskHost, dir).tools.readDocument({ path: p });
        assert.equal(read.isError, false, `${p}: ${read.text}`);
      }
      // Commit evidence that was sent is a block of its own naming the file and the commit.
      assert.match(answer.text, new RegExp(`<document source="docs/payments.md@${head}" trust="project-source" path="docs/payments.md" commit="${head}">`));
      // Commit evidence that did not fit is named in the manifest by commit and path, never in the index.
      const manifest = answer.manifest!;
      assert.deepEqual(manifest.indexed.filter((d) => d.source.includes('@')), []);
      assert.deepEqual(
        manifest.rejected.filter((d) => d.source.includes('@')).map((d) => [d.source, d.reason]),
        // The <retired-decisions> block (the superseded ADR the task asks about) takes its room first: three do not fit.
        // (max_input 3 100: the tool definitions carry the registry's full inputs, 92 tokens more than at 3 000 before.)
        ['src/payments/retry.ts', 'docs/retries.md', 'docs/webhooks.md'].map((p) => [`${p}@${head}`, `not sent: commit ${head} touching ${p} (Raise the confirmPayment timeout everywhere); did not fit the budget (57 tokens left)`]),
      );
      assert.equal(
        manifest.rejected.find((d) => d.source === 'docs/adr/0001-confirm-payments-synchronously.md')?.reason,
        `superseded by ADR-0002: not in force, not loaded; named in <retired-decisions> with its status because the task asks about it (changed in commit ${head} (Raise the confirmPayment timeout everywhere); next to docs/adr/0002-confirm-payments-through-webhooks.md; mentions confirm, payment, time, provider (rank 1 of 5, score 1.3)); not in the index (read_document does not fetch a retired decision)`,
      );
      // Named in the request in a block of its own, with its status and successor (issue 25), not as an index entry.
      assert.match(answer.text, /<retired-decisions [^>]*>\n {2}<decision path="docs\/adr\/0001-confirm-payments-synchronously.md" title="[^"]*" status="superseded by ADR-0002, not in force" \/>\n<\/retired-decisions>/);
      assert.match(new ContextEngine(diskHost, dir).tools.readDocument({ path: `docs/retries.md@${head}` }).text, /is not returned/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a commit-evidence block is not indexable: indexBlock leaves it out; commitNote names commit, path and subject', () => {
    const evidence = makeBlock(DEFAULT_POLICY, 'source_code', 'src/a.ts@abc1234', 'project-source', 'commit abc1234: Fix it\n--- src/a.ts', { title: 'src/a.ts in abc1234', commit: { id: 'abc1234', path: 'src/a.ts', subject: 'Fix it' } });
    const file = makeBlock(DEFAULT_POLICY, 'source_code', 'src/a.ts', 'project-source', 'export const a = 1;', { title: 'a.ts' });
    assert.deepEqual([isIndexable(evidence), isIndexable(file)], [false, true]);
    assert.deepEqual(indexBlock(DEFAULT_POLICY, [evidence, file])?.meta.listed, ['src/a.ts']);
    assert.equal(indexBlock(DEFAULT_POLICY, [evidence]), undefined);
    assert.equal(commitNote(evidence, 'not in this request: did not fit the budget (12 tokens left)'), 'not sent: commit abc1234 touching src/a.ts (Fix it); did not fit the budget (12 tokens left)');
  });
});
