import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { collect } from '../../../src/core/chain/collect';
import { prune } from '../../../src/core/chain/prune';
import { render } from '../../../src/core/chain/render';
import { defaultPolicy } from '../../../src/core/policy';
import { applicability, instructionFamily, readInstruction } from '../../../src/core/sources/instructions';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { FIXTURES, tempWorkspace } from './fixtures';

const ROOT = path.join(FIXTURES, 'instructions');
const snapshotOf = (task = path.join(ROOT, 'task.md'), policy = defaultPolicy()) => loadSnapshot({ root: ROOT, task, policy });

describe('instruction files', () => {
  it('knows each family by its path, and nothing else', () => {
    const paths = [
      'AGENTS.md', 'services/billing/AGENTS.md', 'CLAUDE.md', 'CLAUDE.local.md', '.claude/CLAUDE.md', '.github/copilot-instructions.md',
      '.github/instructions/ts.instructions.md', '.github/instructions/lang/go.instructions.md', '.cursor/rules/a.mdc', 'web/.cursor/rules/b.mdc',
      '.cursorrules', '.clinerules', '.clinerules/01-style.md', '.clinerules/workflows/release.md', 'docs/agents.md', '.github/instructions/notes.md', 'README.md',
    ];
    assert.deepEqual(paths.map(instructionFamily), [
      'agents_md', 'agents_md', 'claude_md', 'claude_md', 'claude_md', 'copilot', 'copilot', 'copilot', 'cursor', 'cursor', 'cursor', 'cline', 'cline', 'cline',
      undefined, undefined, undefined,
    ]);
  });

  it('maps each file to mandatory, conditional or disclosed with its own semantics', () => {
    const s = snapshotOf();
    assert.deepEqual(s.instructions.map((i) => `${i.path} | ${i.mode} | ${i.rule}${i.globs ? ` | ${i.globs.join(' ')}` : ''}`), [
      '.clinerules/01-coding-style.md | mandatory | .clinerules folder',
      '.clinerules/02-database-tests.md | conditional | paths: services/*/test/**,services/*/src/db/** | services/*/test/** services/*/src/db/**',
      '.clinerules/workflows/release.md | disclosed | Cline workflow: run on request',
      '.cursor/rules/database-migrations.mdc | disclosed | agent-requested rule (description only)',
      '.cursor/rules/general.mdc | mandatory | alwaysApply: true',
      '.cursor/rules/react-components.mdc | conditional | globs: *.tsx | *.tsx',
      '.cursor/rules/release-checklist.mdc | disclosed | manual rule (no alwaysApply, globs or description)',
      '.github/copilot-instructions.md | mandatory | repository-wide instructions',
      '.github/instructions/code-review.instructions.md | disclosed | no applyTo: attached on request',
      '.github/instructions/terraform.instructions.md | conditional | applyTo: infra/**/*.tf | infra/**/*.tf',
      '.github/instructions/typescript.instructions.md | conditional | applyTo: **/*.ts,**/*.tsx | **/*.ts **/*.tsx',
      'AGENTS.md | mandatory | workspace root',
      'CLAUDE.md | mandatory | workspace root',
      'docs/AGENTS.md | mandatory | applies below docs/',
      'services/billing/AGENTS.md | mandatory | applies below services/billing/',
      'services/search/AGENTS.md | mandatory | applies below services/search/',
      'web/.cursor/rules/storybook.mdc | conditional | globs: src/components/**/*.tsx | src/components/**/*.tsx',
    ]);
    // Cursor's bare `globs: *.tsx` is not YAML; it is read anyway, and silently, since that is the format.
    assert.deepEqual(s.warnings, []);
    assert.deepEqual(s.instructions.filter((a) => a.family === 'agents_md' && a.text.trim()).map((a) => a.path), ['AGENTS.md', 'services/billing/AGENTS.md', 'services/search/AGENTS.md']);
  });

  it('loads what applies root first, rejects the rest with a reason, and discloses the on-request files', () => {
    const s = snapshotOf();
    const collected = collect(s);
    const rules = collected.value.blocks.filter((b) => b.kind === 'agents_md');
    assert.deepEqual(rules.map((b) => b.source), [
      'AGENTS.md',
      'CLAUDE.md',
      '.github/copilot-instructions.md',
      '.cursor/rules/general.mdc',
      '.clinerules/01-coding-style.md',
      '.github/instructions/typescript.instructions.md',
      '.cursor/rules/react-components.mdc',
      'web/.cursor/rules/storybook.mdc',
      'services/billing/AGENTS.md',
    ]);
    assert.ok(rules.every((b) => b.mandatory && b.trust === 'project-rule'));
    assert.deepEqual(collected.decisions.rejected?.map((d) => `${d.source}: ${d.reason}`), [
      '.github/instructions/terraform.instructions.md: conditional rule (applyTo: infra/**/*.tf) matches none of the task\'s files',
      '.clinerules/02-database-tests.md: conditional rule (paths: services/*/test/**,services/*/src/db/**) matches none of the task\'s files',
      'docs/AGENTS.md: empty file: nothing to load',
      'services/search/AGENTS.md: AGENTS.md does not apply: no file of the task lies below services/search/',
    ]);
    const pruned = prune(collected.value.blocks, s.task.component);
    assert.deepEqual(pruned.value.disclosed.filter((b) => b.meta.tags?.[0] === 'instructions').map((b) => [b.source, b.meta.summary ?? null]), [
      ['.github/instructions/code-review.instructions.md', 'Checklist for reviewing pull requests that touch invoicing rules'],
      ['.cursor/rules/database-migrations.mdc', 'How to write a database migration for the billing schema (expand/contract, backfills, locks)'],
      ['.cursor/rules/release-checklist.mdc', null],
      ['.clinerules/workflows/release.md', null],
    ]);
  });

  it('a nested AGENTS.md applies only below its own folder, and its rules come after the root\'s in the request', () => {
    const below = collect(snapshotOf()).value.blocks;
    const request = render(below, 'gpt-4o', 2000);
    const context = request.messages[0].content;
    const root = context.indexOf('<rules source="AGENTS.md"');
    const nested = context.indexOf('<rules source="services/billing/AGENTS.md"');
    assert.ok(root >= 0 && nested > root, `root at ${root}, nested at ${nested}`);
    assert.ok(context.indexOf('Invoice numbers are allocated by') > context.indexOf('Amounts are integers in minor units'));
    assert.equal(context.includes('services/search/AGENTS.md'), false);

    const elsewhere = collect(snapshotOf('Fix the README typo')).value;
    assert.deepEqual(elsewhere.blocks.filter((b) => b.kind === 'agents_md').map((b) => b.source), [
      'AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md', '.cursor/rules/general.mdc', '.clinerules/01-coding-style.md',
    ]);
  });

  it('applicability: globs relative to a nested .cursor folder; a task with no files matches no conditional rule', () => {
    const rule = readInstruction('web/.cursor/rules/storybook.mdc', '---\nglobs: src/components/**/*.tsx\n---\nStories.\n', 'cursor').file;
    assert.deepEqual(applicability(rule, ['web/src/components/Table.tsx']), { applies: true });
    assert.deepEqual(applicability(rule, ['src/components/Table.tsx']), { applies: false, reason: 'storybook.mdc does not apply: no file of the task lies below web/' });
    const ts = readInstruction('.github/instructions/ts.instructions.md', '---\napplyTo: "**/*.ts"\n---\nStrict.\n', 'copilot').file;
    assert.deepEqual(applicability(ts, []), { applies: false, reason: 'conditional rule (applyTo: **/*.ts): the task names no files' });
    const all = readInstruction('.github/instructions/all.instructions.md', '---\napplyTo: "**"\n---\nAlways.\n', 'copilot').file;
    assert.deepEqual([all.mode, all.rule], ['mandatory', 'applyTo: **']);
    const legacy = readInstruction('.cursorrules', '\uFEFFUse tabs.\r\nNo semicolons.\r\n', 'cursor').file;
    assert.deepEqual([legacy.mode, legacy.text], ['mandatory', 'Use tabs.\nNo semicolons.']);
  });

  it('.clinerules as a single file, CLAUDE.md below the root, and the policy switching families off', () => {
    const root = tempWorkspace({
      'AGENTS.md': '# Rules\n\nUse pnpm.\n',
      '.clinerules': 'Always run the linter before you finish.\n',
      '.claude/CLAUDE.md': 'Prefer small diffs.\n',
      'api/CLAUDE.md': 'The API uses Fastify.\n',
      '.github/copilot-instructions.md': 'Use the shared logger.\n',
      'api/server.ts': 'export {};\n',
    });
    const task = 'Fix the server';
    const all = collect(loadSnapshot({ root, task })).value.blocks.filter((b) => b.kind === 'agents_md').map((b) => b.source);
    assert.deepEqual(all, ['AGENTS.md', '.claude/CLAUDE.md', '.github/copilot-instructions.md', '.clinerules']);
    const policy = defaultPolicy();
    policy.sources = { ...policy.sources, claude_md: false, cline: false, copilot: false };
    const some = loadSnapshot({ root, task, policy });
    assert.deepEqual(some.instructions.map((i) => i.path), ['AGENTS.md']);
    assert.equal(some.documents.some((d) => d.path.endsWith('CLAUDE.md')), false, 'a switched-off family is not read as a document either');
  });
});
