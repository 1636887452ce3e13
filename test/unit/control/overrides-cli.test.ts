import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { spawnCli } from '../redteam/hostile';
import { EXAMPLE } from '../helpers';

/** A copy of the example workspace, so a test can write its .context/overrides.json. */
function example(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctl-cli-overrides-'));
  fs.cpSync(EXAMPLE, root, { recursive: true });
  return root;
}
const manifestOf = (root: string, ...flags: string[]) => {
  const r = spawnCli(['preview', '--workspace', root, '--task', path.join(root, 'ticket.md'), '--no-git', '--json', ...flags]);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out).manifest as Record<string, { source: string; reason?: string; message?: string }[]>;
};
const reasonOf = (entries: { source: string; reason?: string }[], source: string) => entries.find((d) => d.source === source)?.reason;

describe('ctxctl preview --include / --exclude (dist/cli.js)', () => {
  it('pulls an indexed document in and pushes a selected one out, repeatable', () => {
    const root = example();
    const before = manifestOf(root);
    assert.match(reasonOf(before.indexed, 'docs/runbook.md') ?? '', /^below the relevance threshold/);
    assert.match(reasonOf(before.selected, 'docs/adr/adr-012-optional-fields-at-http-boundary.md') ?? '', /^applicable decision/);
    const after = manifestOf(root, '--include', 'docs/runbook.md', '--exclude', 'docs/adr/adr-012-optional-fields-at-http-boundary.md', '--exclude', 'docs/marketing-notes.md');
    assert.ok(after.selected.some((d) => d.source === 'docs/runbook.md'));
    assert.equal(reasonOf(after.indexed, 'docs/runbook.md'), undefined);
    assert.equal(reasonOf(after.rejected, 'docs/adr/adr-012-optional-fields-at-http-boundary.md'), 'excluded by you');
    assert.equal(reasonOf(after.rejected, 'docs/marketing-notes.md'), 'excluded by you');
    assert.equal(after.rejected.filter((d) => d.source === 'docs/marketing-notes.md').length, 1);
    assert.equal(after.selected.some((d) => d.source === 'docs/adr/adr-012-optional-fields-at-http-boundary.md'), false);
  });

  it('reads .context/overrides.json, and the flags win over it for a path', () => {
    const root = example();
    fs.writeFileSync(path.join(root, '.context/overrides.json'), JSON.stringify({ version: 1, include: ['docs/runbook.md'], exclude: ['docs/architecture.md'] }));
    const fromFile = manifestOf(root);
    assert.ok(fromFile.selected.some((d) => d.source === 'docs/runbook.md'));
    assert.equal(reasonOf(fromFile.rejected, 'docs/architecture.md'), 'excluded by you');
    const flagged = manifestOf(root, '--exclude', 'docs/runbook.md');
    assert.equal(reasonOf(flagged.rejected, 'docs/runbook.md'), 'excluded by you');
  });

  it('refuses with exit 3 when an include cannot fit, and with exit 2 on a bad file or flag', () => {
    const root = example();
    const big = spawnCli(['preview', '--workspace', root, '--task', path.join(root, 'ticket.md'), '--no-git', '--include', 'docs/architecture.md', '--max-input', '5000']);
    assert.equal(big.code, 3);
    assert.match(big.err, /^ctxctl: ContextBudgetExceeded: included by you but does not fit: docs\/architecture\.md \(\d+ tokens\); \d+ tokens are left once the protected blocks \(\d+ tokens\) are placed, max_input is 5000\.\n/);
    const both = spawnCli(['preview', '--workspace', root, '--task', 'x', '--include', 'a.md', '--exclude', './a.md']);
    assert.deepEqual([both.code, both.err], [2, 'ctxctl: --include and --exclude both name a.md: keep one\n']);
    const outside = spawnCli(['preview', '--workspace', root, '--task', 'x', '--exclude', '../a.md']);
    assert.deepEqual([outside.code, outside.err], [2, 'ctxctl: --exclude ../a.md: the path leads outside the workspace\n']);
    fs.writeFileSync(path.join(root, '.context/overrides.json'), '{"include": "docs/runbook.md"}');
    const bad = spawnCli(['preview', '--workspace', root, '--task', 'x', '--no-git']);
    assert.deepEqual([bad.code, bad.err], [2, 'ctxctl: .context/overrides.json:1:13: "include" must be a list of workspace-relative paths\n']);
  });
});
