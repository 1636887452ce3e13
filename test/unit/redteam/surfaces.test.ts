import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../../../src/cli/mcp';
import { ctl, fifo, spawnCli } from './hostile';
import { EXPECTED, type Expected, type Surface } from './surfaces-expected';
import { ENV_SECRET, GIT_CANARY, HOSTILE, hostileLayout, OUTSIDE_CANARY, leaks, outsideRepo, outsideState, writtenText, type HostileId, type Layout } from './surfaces';

/**
 * One way to resolve a path: every surface that takes a path refuses the same eight hostile paths (a link
 * to /etc/passwd, a link to a file in another temporary folder, `../outside.txt`, an absolute path outside, `.env`, a
 * link to `.env`, a FIFO, a folder), through the one workspace guard (src/core/sources/guard.ts). Each case checks the
 * exit code or isError, the message (naming the path), that no outside or secret content reached stdout, stderr or
 * anything written, and that nothing outside the workspace changed.
 */

interface Outcome {
  /** Exit code, or 1/0 for an MCP answer's isError. */
  code: number;
  /** The line that says what happened (stderr's first line, the MCP text, or the warning about the path). */
  message: string;
  /** Everything the run printed or returned. */
  all: string;
}

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

async function mcpClient(root: string): Promise<{ call: (name: string, args: Record<string, unknown>) => Promise<Outcome>; close: () => Promise<void> }> {
  const server = createServer(root, () => undefined);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'redteam', version: '1.0.0' });
  await client.connect(b);
  return {
    call: async (name, args) => {
      const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as TextResult;
      const text = r.content.map((c) => c.text).join('');
      return { code: r.isError ? 1 : 0, message: text.split('\n')[0], all: text };
    },
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

const firstLine = (s: string) => s.split('\n')[0];

/** The warning lines of a `preview --json` run (or the error line when it failed). */
function previewOutcome(r: { code: number; out: string; err: string }, source: string, about = (_m: string) => true): Outcome {
  if (r.code !== 0) return { code: r.code, message: firstLine(r.err), all: r.out + r.err };
  const warnings = (JSON.parse(r.out) as { manifest: { warnings: { source: string; line?: number; message: string }[] } }).manifest.warnings;
  const w = warnings.find((x) => x.source === source && about(x.message));
  return { code: 0, message: w ? `${w.source}: ${w.message}` : '(no warning)', all: r.out + r.err };
}

/** The link target that makes a workspace config file (policy.yaml, checks.yaml) the hostile path, seen from `.context/`. */
const LINK_TARGET: Record<HostileId, (l: Layout) => string> = {
  'passwd-link': () => '/etc/passwd',
  'outside-link': () => '../outside-link.txt',
  'dot-dot': () => '../../outside.txt',
  absolute: (l) => path.join(l.outside, 'outside.txt'),
  env: () => '../.env',
  'env-link': () => '../env-link.txt',
  fifo: () => '../pipe.txt',
  folder: () => '../somedir',
};

const CHECKS = (task: string) => `- name: probe\n  task: ${JSON.stringify(task)}\n  contains: ["${'OUTSIDE'}"]\n`;

/** One surface: how a hostile path is given to it, and what came back. */
const RUN: Record<Surface, (l: Layout, id: HostileId, mcp: Awaited<ReturnType<typeof mcpClient>>) => Promise<Outcome>> = {
  'mcp assemble_context task': async (l, id, mcp) => {
    const o = await mcp.call('assemble_context', { task: l.arg[id] });
    // An answer (not an error): the line of its trace that says what became of the path.
    return o.code ? o : { ...o, message: o.all.split('\n').map((x) => x.trim()).find((x) => x.includes(`"${l.arg[id]}" names`)) ?? '(no warning)' };
  },
  'mcp assemble_context policy': (l, id, mcp) => mcp.call('assemble_context', { task: 'What does the payment service do?', policy: l.arg[id] }),
  'mcp read_document': (l, id, mcp) => mcp.call('read_document', { path: l.arg[id] }),
  'mcp inspect_offloaded': (l, id, mcp) => mcp.call('inspect_offloaded', { path: l.arg[id], op: 'head', lines: 5 }),
  'cli preview --task': async (l, id) => {
    const r = spawnCli(['preview', '--workspace', l.root, '--task', l.arg[id], '--json', '--no-git'], { cwd: l.root });
    return previewOutcome(r, 'task');
  },
  'cli preview --tool-result': async (l, id) => {
    const r = spawnCli(['preview', '--workspace', l.root, '--task', 'What failed?', '--tool-result', `probe=${l.arg[id]}`, '--json', '--no-git'], { cwd: l.root });
    return previewOutcome(r, 'tool:probe');
  },
  'check: checks.yaml task': async (l, id) => {
    fs.writeFileSync(path.join(l.root, '.context', 'checks.yaml'), CHECKS(l.arg[id]));
    const r = await ctl(['check', '--workspace', l.root]);
    return { code: r.code, message: firstLine(r.err || r.out), all: r.out + r.err };
  },
  '.context/pins.json entry': async (l, id) => {
    fs.writeFileSync(path.join(l.root, '.context', 'pins.json'), JSON.stringify([{ id: 'p1', source: l.arg[id], text: '' }]));
    const r = await ctl(['preview', '--workspace', l.root, '--task', 'x y', '--json', '--no-git']);
    fs.rmSync(path.join(l.root, '.context', 'pins.json'));
    return previewOutcome(r, l.arg[id], (m) => m.startsWith('pinned block'));
  },
  '.context/overrides.json entry': async (l, id) => {
    fs.writeFileSync(path.join(l.root, '.context', 'overrides.json'), JSON.stringify({ version: 1, include: [l.arg[id]] }));
    const r = await ctl(['preview', '--workspace', l.root, '--task', 'x y', '--json', '--no-git']);
    fs.rmSync(path.join(l.root, '.context', 'overrides.json'));
    return r.code === 0 ? { code: 0, message: '(accepted)', all: r.out + r.err } : { code: r.code, message: firstLine(r.err), all: r.out + r.err };
  },
  '.context/policy.yaml as a link': async (l, id) => {
    const link = path.join(l.root, '.context', 'policy.yaml');
    fs.symlinkSync(LINK_TARGET[id](l), link);
    const r = await ctl(['preview', '--workspace', l.root, '--task', 'x y', '--json', '--no-git']);
    fs.rmSync(link);
    return previewOutcome(r, '.context/policy.yaml');
  },
  '.context/checks.yaml as a link': async (l, id) => {
    const link = path.join(l.root, '.context', 'checks.yaml');
    fs.rmSync(link, { force: true });
    fs.symlinkSync(LINK_TARGET[id](l), link);
    const r = await ctl(['check', '--workspace', l.root]);
    fs.rmSync(link);
    return { code: r.code, message: firstLine(r.err || r.out), all: r.out + r.err };
  },
};

/** The canary a successful read would show: the outside policy sets window 1000 (preview exit 3), the file texts. */
function assertCase(l: Layout, o: Outcome, want: Expected, label: string): void {
  assert.deepEqual({ code: o.code, message: o.message }, { code: want.code, message: typeof want.message === 'function' ? want.message(l) : want.message }, label);
  assert.deepEqual(leaks(o.all), want.readAsNamed ? [OUTSIDE_CANARY] : [], `${label}: nothing outside or secret in the output`);
  assert.deepEqual(leaks(writtenText(l.root).replace(/OPENAI_API_KEY=\S+/, '')), [], `${label}: nothing outside or secret written in the workspace`);
  assert.equal(outsideState(l.base, l.root, l.outside), l.before, `${label}: nothing outside the workspace changed`);
}

describe('red team: every surface refuses the same hostile paths', () => {
  let l: Layout;
  let mcp: Awaited<ReturnType<typeof mcpClient>>;
  before(async () => {
    l = hostileLayout({ '.context/.keep': '' });
    mcp = await mcpClient(l.root);
  });
  after(async () => {
    await mcp.close();
  });

  for (const surface of Object.keys(RUN) as Surface[]) {
    for (const id of HOSTILE) {
      it(`${surface} × ${id}`, async () => {
        const o = await RUN[surface](l, id, mcp);
        if (process.env.SURFACES_PRINT) process.stdout.write(`PRINT ${JSON.stringify([surface, id, o.code, o.message, leaks(o.all)])}\n`);
        const want = EXPECTED[surface][id];
        assertCase(l, o, want, `${surface} × ${id}`);
      });
    }
  }
});

describe('red team: a task file whose content is mostly secrets (a .env renamed notes.txt)', () => {
  const ENV_TEXT = `OPENAI_API_KEY=${ENV_SECRET}\nAWS_ACCESS_KEY_ID=AKIAY34FZKBOKMUTVV7A\n`;
  it('preview --task notes.txt: exit 2, one line naming it; no value printed', () => {
    const l = hostileLayout({ 'notes.txt': ENV_TEXT });
    const r = spawnCli(['preview', '--workspace', l.root, '--task', 'notes.txt', '--json', '--no-git'], { cwd: l.root });
    assert.deepEqual([r.code, r.out, r.err], [2, '', 'ctxctl: task "notes.txt" holds mostly secrets (a .env under another name?): refused, never sent\n']);
  });

  it('MCP assemble_context {"task": "notes.txt"}: isError, the same line; no value returned', async () => {
    const l = hostileLayout({ 'notes.txt': ENV_TEXT });
    const mcp = await mcpClient(l.root);
    try {
      const o = await mcp.call('assemble_context', { task: 'notes.txt' });
      assert.deepEqual([o.code, o.all], [1, 'task "notes.txt" holds mostly secrets (a .env under another name?): refused, never sent']);
    } finally {
      await mcp.close();
    }
  });
});

describe('red team: .context as a link, git through a .git file, setup through a hard link', () => {
  it('.context linked to an outside folder, to ../ctx, to /etc: preview exit 2 naming .context/policy.yaml; the outside policy never applies', async () => {
    for (const target of ['outside', '../ctx', '/etc'] as const) {
      const l = hostileLayout();
      fs.mkdirSync(path.join(l.base, 'ctx'));
      fs.writeFileSync(path.join(l.base, 'ctx', 'policy.yaml'), fs.readFileSync(path.join(l.outside, 'outside.txt')));
      fs.writeFileSync(path.join(l.outside, 'policy.yaml'), fs.readFileSync(path.join(l.outside, 'outside.txt')));
      const before = outsideState(l.base, l.root, l.outside);
      fs.symlinkSync(target === 'outside' ? l.outside : target, path.join(l.root, '.context'));
      const r = await ctl(['preview', '--workspace', l.root, '--task', 'x y', '--json', '--no-git']);
      // Even where the outside folder has no policy.yaml (/etc): the path leads out, so it is refused, not defaulted.
      assert.deepEqual([r.code, firstLine(r.err)], [2, 'ctxctl: .context/policy.yaml: leads outside the workspace through a symbolic link: refused, never read'], target);
      assert.deepEqual(leaks(r.out + r.err), [], target);
      assert.equal(outsideState(l.base, l.root, l.outside), before, `${target}: nothing outside written`);
    }
  });

  it('.context linked to a folder inside the workspace is followed (the policy applies)', async () => {
    const l = hostileLayout({ 'config/policy.yaml': 'envelope: { window: 1000, output_reserve: 100, margin: 100 }\n' });
    fs.symlinkSync('config', path.join(l.root, '.context'));
    const r = await ctl(['preview', '--workspace', l.root, '--task', 'x y', '--json', '--no-git']);
    assert.equal(r.code, 0, r.err);
    assert.equal((JSON.parse(r.out) as { manifest: { budget: { window: number } } }).manifest.budget.window, 1000, 'the inside policy took effect');
  });

  it('.context/pins.json, overrides.json and session.jsonl under a .context linked outside: refused, exit 2, never read', async () => {
    for (const file of ['pins.json', 'overrides.json', 'session.jsonl']) {
      const l = hostileLayout();
      fs.writeFileSync(path.join(l.outside, file), file === 'pins.json' ? JSON.stringify([{ source: 'README.md', text: l.arg.absolute }]) : file === 'overrides.json' ? '{"version": 1}' : '');
      fs.mkdirSync(path.join(l.root, '.context'));
      fs.symlinkSync(path.join(l.outside, file), path.join(l.root, '.context', file));
      const r = await ctl(['preview', '--workspace', l.root, '--task', 'x y', '--json', '--no-git']);
      assert.deepEqual([r.code, firstLine(r.err)], [2, `ctxctl: .context/${file}: leads outside the workspace through a symbolic link: refused, never read`], file);
      assert.deepEqual(leaks(r.out + r.err), []);
    }
  });

  const gitCases: { name: string; make: (l: Layout, repo: string) => void; warning: (l: Layout, repo: string) => string }[] = [
    {
      name: 'a .git file with gitdir: <outside repo>/.git',
      make: (l, repo) => fs.writeFileSync(path.join(l.root, '.git'), `gitdir: ${path.join(repo, '.git')}\n`),
      warning: (_l, repo) => `.git: names gitdir ${path.join(repo, '.git')}, outside the workspace, and that repository is not a worktree or submodule of this folder: git history not read`,
    },
    {
      name: 'a .git file with a relative gitdir: ../../<repo>/.git',
      make: (l, repo) => fs.writeFileSync(path.join(l.root, '.git'), `gitdir: ../../${path.basename(repo)}/.git\n`),
      warning: (_l, repo) => `.git: names gitdir ../../${path.basename(repo)}/.git, outside the workspace, and that repository is not a worktree or submodule of this folder: git history not read`,
    },
    {
      name: '.git a symbolic link to the outside repository',
      make: (l, repo) => fs.symlinkSync(path.join(repo, '.git'), path.join(l.root, '.git')),
      warning: () => '.git: leads outside the workspace through a symbolic link: refused, never read; git history not read',
    },
    {
      name: 'a .git file with gitdir: /etc/passwd',
      make: (l) => fs.writeFileSync(path.join(l.root, '.git'), 'gitdir: /etc/passwd\n'),
      warning: () => '.git: names gitdir /etc/passwd, which is a file, not a folder: refused; git history not read',
    },
    {
      name: 'a .git file with gitdir: a link inside the workspace that leads to the outside repository',
      make: (l, repo) => {
        fs.symlinkSync(path.join(repo, '.git'), path.join(l.root, 'gitlink'));
        fs.writeFileSync(path.join(l.root, '.git'), 'gitdir: gitlink\n');
      },
      warning: () => '.git: names gitdir gitlink, which leads outside the workspace through a symbolic link: refused, never read; git history not read',
    },
    {
      name: '.git a FIFO',
      make: (l) => fifo(path.join(l.root, '.git')),
      warning: () => '.git: is a FIFO (named pipe): never opened; git history not read',
    },
    {
      name: 'a .git folder whose commondir is the outside repository',
      make: (l, repo) => {
        fs.mkdirSync(path.join(l.root, '.git'));
        fs.writeFileSync(path.join(l.root, '.git', 'commondir'), path.join(repo, '.git'));
        fs.writeFileSync(path.join(l.root, '.git', 'HEAD'), 'ref: refs/heads/master\n');
      },
      warning: () => '.git: has a commondir outside the workspace: git history not read',
    },
  ];
  for (const c of gitCases) {
    it(`git: ${c.name}: preview exit 0, one warning on .git, no outside commit or hunk sent`, async () => {
      const repo = outsideRepo();
      const l = hostileLayout();
      c.make(l, repo);
      const r = await ctl(['preview', '--workspace', l.root, '--task', 'What changed in the plan?', '--json']);
      assert.equal(r.code, 0, r.err);
      const p = JSON.parse(r.out) as { manifest: { warnings: { source: string; message: string }[] } };
      assert.deepEqual(p.manifest.warnings.filter((w) => w.source === '.git').map((w) => `${w.source}: ${w.message}`), [c.warning(l, repo)]);
      assert.deepEqual(leaks(r.out + r.err), []);
    });
  }

  it('git: a linked worktree of a repository elsewhere (git worktree add) still has its history read', async () => {
    const repo = outsideRepo();
    const l = hostileLayout();
    const wt = path.join(l.base, 'wt');
    assert.equal(spawnSync('git', ['-C', repo, 'worktree', 'add', '-q', wt], { encoding: 'utf8' }).status, 0);
    const r = await ctl(['preview', '--workspace', wt, '--task', 'What changed in the plan?', '--json']);
    assert.equal(r.code, 0, r.err);
    const p = JSON.parse(r.out) as { manifest: { warnings: { source: string }[] } };
    assert.deepEqual(p.manifest.warnings.filter((w) => w.source === '.git'), []);
    assert.ok(r.out.includes(GIT_CANARY), 'the worktree\'s own commit is read');
  });

  it('git: GIT_DIR in the environment does not point git at another repository', async () => {
    const repo = outsideRepo();
    const l = hostileLayout();
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = path.join(repo, '.git');
    try {
      const r = await ctl(['preview', '--workspace', l.root, '--task', 'What changed in the plan?', '--json']);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(leaks(r.out + r.err), []);
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });

  it('session compact: a summary store hard-linked to an outside file is not appended to (exit 2, one line); the outside file is unchanged', () => {
    const l = hostileLayout();
    fs.mkdirSync(path.join(l.root, '.context'));
    const events = Array.from({ length: 10 }, (_, i) => [`{"id":"u${i}","type":"user","text":"Step ${i}: fix the checkout"}`, `{"id":"a${i}","type":"assistant","text":"Done with step ${i}."}`]).flat();
    fs.writeFileSync(path.join(l.root, '.context', 'session.jsonl'), events.join('\n') + '\n');
    fs.writeFileSync(path.join(l.outside, 'summaries.jsonl'), '');
    fs.linkSync(path.join(l.outside, 'summaries.jsonl'), path.join(l.root, '.context', 'session.summaries.jsonl'));
    const before = outsideState(l.base, l.root, l.outside);
    const r = spawnCli(['session', 'compact', '--workspace', l.root]);
    assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(l.root, '.context', 'session.summaries.jsonl')}: has 2 hard links (another name may be outside the workspace): the summary was not stored\n`]);
    assert.equal(outsideState(l.base, l.root, l.outside), before);
  });

  it('session compact: the workspace store under a .context linked outside is neither read nor written', () => {
    const l = hostileLayout();
    const events = Array.from({ length: 10 }, (_, i) => `{"id":"u${i}","type":"user","text":"Step ${i}"}`);
    fs.writeFileSync(path.join(l.outside, 'session.jsonl'), events.join('\n') + '\n');
    fs.symlinkSync(l.outside, path.join(l.root, '.context'));
    const before = outsideState(l.base, l.root, l.outside);
    const r = spawnCli(['session', 'compact', '--workspace', l.root]);
    // The first file of .context read (the policy) is already refused: nothing of the outside folder is used.
    assert.deepEqual([r.code, r.err], [2, 'ctxctl: .context/policy.yaml: leads outside the workspace through a symbolic link: refused, never read\n']);
    assert.equal(outsideState(l.base, l.root, l.outside), before);
  });

  const setupCases: { name: string; make: (l: Layout) => string; message: string }[] = [
    { name: '.mcp.json hard-linked to an outside file', make: (l) => hard(l, '.mcp.json'), message: 'ctxctl: .mcp.json: has 2 hard links (another name may be outside the workspace): not read or written' },
    { name: '.claude/settings.json hard-linked to an outside file', make: (l) => hard(l, '.claude/settings.json'), message: 'ctxctl: .claude/settings.json: has 2 hard links (another name may be outside the workspace): not read or written' },
    { name: '.mcp.json a link to an outside file', make: (l) => soft(l, '.mcp.json', path.join(l.outside, 'target.json')), message: 'ctxctl: .mcp.json: is not a regular file (a link or a folder): not read or written' },
    { name: '.claude a link to an outside folder', make: (l) => soft(l, '.claude', l.outside), message: 'ctxctl: .claude/settings.json: leads outside the workspace through a symbolic link: not read or written' },
    { name: '.mcp.json a link to /etc/passwd', make: (l) => soft(l, '.mcp.json', '/etc/passwd'), message: 'ctxctl: .mcp.json: is not a regular file (a link or a folder): not read or written' },
    { name: '.mcp.json a FIFO', make: (l) => (fifo(path.join(l.root, '.mcp.json')), ''), message: 'ctxctl: .mcp.json: is not a regular file (a link or a folder): not read or written' },
    { name: '.mcp.json a folder', make: (l) => (fs.mkdirSync(path.join(l.root, '.mcp.json')), ''), message: 'ctxctl: .mcp.json: is not a regular file (a link or a folder): not read or written' },
  ];
  function hard(l: Layout, rel: string): string {
    const target = path.join(l.outside, 'target.json');
    fs.writeFileSync(target, '{"keep": "me"}\n');
    fs.mkdirSync(path.dirname(path.join(l.root, rel)), { recursive: true });
    fs.linkSync(target, path.join(l.root, rel));
    return target;
  }
  function soft(l: Layout, rel: string, target: string): string {
    if (target.startsWith(l.outside) && target.endsWith('.json')) fs.writeFileSync(target, '{"keep": "me"}\n');
    fs.symlinkSync(target, path.join(l.root, rel));
    return target;
  }
  for (const c of setupCases) {
    it(`setup claude-code --write: ${c.name}: exit 2, one line naming it, nothing written anywhere`, () => {
      const l = hostileLayout();
      c.make(l);
      const before = [outsideState(l.base, l.root, l.outside), JSON.stringify(fs.readdirSync(l.root).sort())];
      const r = spawnCli(['setup', 'claude-code', '--workspace', l.root, '--write'], { cwd: l.root });
      assert.deepEqual([r.code, r.out, firstLine(r.err)], [2, '', c.message]);
      assert.deepEqual([outsideState(l.base, l.root, l.outside), JSON.stringify(fs.readdirSync(l.root).sort())], before, 'nothing written, inside or outside');
      assert.deepEqual(leaks(r.out + r.err), []);
    });
  }
});
