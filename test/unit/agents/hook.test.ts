import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { EXAMPLE, REPO } from '../helpers';

/** `ctxctl hook claude-code` (the bundle) fed the hook events Claude Code writes on stdin. */

const CLI = path.join(REPO, 'dist', 'cli.js');
const EVENTS = path.join(REPO, 'test', 'fixtures', 'hooks');
const PIN_RULE = { id: 'p1', source: 'AGENTS.md', startLine: 28, endLine: 28, label: 'compat', text: '- **Public HTTP APIs must stay backward compatible: never make an existing optional request field required; new fields must be optional at the HTTP boundary.** Defaults belong in the service layer, not in the client.' };
const PIN_NOTE = { id: 'p2', source: 'docs/runbook.md', startLine: 3, endLine: 3, label: 'on call', text: 'Rollback first & ask later: `./mvnw -q verify` must pass <before> any deploy.' };

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function workspace(pins: object[] = [PIN_RULE, PIN_NOTE]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-hook-'));
  roots.push(root);
  fs.cpSync(EXAMPLE, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}offload`) });
  fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify(pins, null, 2));
  return root;
}

function event(name: string, root: string): string {
  return fs.readFileSync(path.join(EVENTS, `${name}.json`), 'utf8').replace('$WORKSPACE', root);
}

function hook(input: string, args: string[] = [], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, 'hook', 'claude-code', ...args], { input, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const AGENTS_TEXT = fs.readFileSync(path.join(EXAMPLE, 'AGENTS.md'), 'utf8').trim();

describe('ctxctl hook claude-code', () => {
  for (const source of ['startup', 'resume', 'compact']) {
    it(`SessionStart/${source}: prints hookSpecificOutput with the AGENTS.md rules and the pinned blocks verbatim`, () => {
      const root = workspace();
      const r = hook(event(`session-start-${source}`, root), [], { CLAUDE_PROJECT_DIR: root });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.ok(r.stdout.endsWith('}\n'));
      const out = JSON.parse(r.stdout);
      assert.deepEqual(Object.keys(out), ['hookSpecificOutput']);
      assert.deepEqual(Object.keys(out.hookSpecificOutput), ['hookEventName', 'additionalContext']);
      assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
      const context: string = out.hookSpecificOutput.additionalContext;
      const [note] = context.split('\n');
      assert.match(note, new RegExp(`^\\[Context Control\\] Re-injected on ${source}, verbatim: the rules of AGENTS\\.md and 2 pinned blocks \\([\\d\u202f]+ tokens, budget 11\u202f000; at most 9\u202f500 characters for Claude Code\\)\\. They still apply\\.$`));
      assert.ok(context.includes(`<rules source="AGENTS.md">\n${AGENTS_TEXT}\n</rules>`), 'the AGENTS.md rules, verbatim');
      assert.ok(context.includes(`<pinned source="AGENTS.md#L28-L28" label="compat">\n${PIN_RULE.text}\n</pinned>`), 'pin 1, verbatim');
      assert.ok(context.includes(`<pinned source="docs/runbook.md#L3-L3" label="on call">\n${PIN_NOTE.text}\n</pinned>`), 'pin 2, verbatim (& and <> unescaped)');
      assert.ok(context.indexOf('<rules') < context.indexOf('<pinned source="AGENTS.md'), 'rules, then pins, as in the request');
    });
  }

  it('takes the workspace from --workspace, else CLAUDE_PROJECT_DIR, else the event cwd', () => {
    const fromCwd = workspace([PIN_RULE]);
    const fromEnv = workspace([PIN_NOTE]);
    const fromFlag = workspace([]);
    const pins = (r: ReturnType<typeof hook>) => (JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string).match(/<pinned source="[^"]+"/g) ?? [];
    assert.deepEqual(pins(hook(event('session-start-compact', fromCwd))), ['<pinned source="AGENTS.md#L28-L28"']);
    assert.deepEqual(pins(hook(event('session-start-compact', fromCwd), [], { CLAUDE_PROJECT_DIR: fromEnv })), ['<pinned source="docs/runbook.md#L3-L3"']);
    const flag = hook(event('session-start-compact', fromCwd), ['--workspace', fromFlag], { CLAUDE_PROJECT_DIR: fromEnv });
    assert.deepEqual(pins(flag), []);
    assert.match(JSON.parse(flag.stdout).hookSpecificOutput.additionalContext, /^\[Context Control\] Re-injected on compact, verbatim: the rules of AGENTS\.md \(/);
  });

  it('names what does not fit the budget instead of cutting it', () => {
    const root = workspace();
    const r = hook(event('session-start-compact', root), ['--max-tokens', '700']);
    const context: string = JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
    const note = context.split('\n')[0];
    assert.match(note, /^\[Context Control\] Re-injected on compact, verbatim: the rules of AGENTS\.md and 1 pinned block \([\d\u202f]+ tokens, budget 700; at most 9\u202f500 characters for Claude Code\)\. They still apply\. Not re-injected: docs\/runbook\.md#L3-L3 \(\d+ tokens; do not fit in the 700-token budget; open it with read_document\)\.$/);
    assert.ok(context.includes(`<pinned source="AGENTS.md#L28-L28" label="compat">\n${PIN_RULE.text}\n</pinned>`));
    assert.ok(!context.includes(PIN_NOTE.text), 'the pin that does not fit is named, not cut');
  });

  // Claude Code keeps 10 000 characters of a hook's context; above that the pins were lost.
  const BIG_NOTE = Array.from({ length: 400 }, (_, i) => `Line ${String(i + 1).padStart(3, '0')}: the nightly settlement batch reconciles card captures.`).join('\n') + '\n';
  const BIG_PIN = { id: 'big', source: 'docs/big-note.md', text: '', label: 'big note' };

  it('a 26 KB whole-file pin is left out and named; the rules and the other pins go whole, under 9 500 characters', () => {
    assert.equal(BIG_NOTE.length, 26_000);
    const root = workspace([PIN_RULE, BIG_PIN, PIN_NOTE]);
    fs.writeFileSync(path.join(root, 'docs', 'big-note.md'), BIG_NOTE);
    const context: string = JSON.parse(hook(event('session-start-compact', root)).stdout).hookSpecificOutput.additionalContext;
    const note = context.split('\n')[0];
    assert.equal(
      note,
      '[Context Control] Re-injected on compact, verbatim: the rules of AGENTS.md and 2 pinned blocks (559 tokens, budget 11\u202f000; at most 9\u202f500 characters for Claude Code). They still apply. ' +
        'Not re-injected: docs/big-note.md (5\u202f219 tokens; Claude Code keeps 10\u202f000 characters of a hook; open it with read_document).',
    );
    assert.equal(context.length, 2_555, 'the note, the rules and two pins: 2 555 characters');
    assert.ok(context.length <= 9_500);
    assert.ok(context.includes(`<rules source="AGENTS.md">\n${AGENTS_TEXT}\n</rules>`));
    assert.ok(context.includes(`<pinned source="AGENTS.md#L28-L28" label="compat">\n${PIN_RULE.text}\n</pinned>`));
    assert.ok(context.includes(`<pinned source="docs/runbook.md#L3-L3" label="on call">\n${PIN_NOTE.text}\n</pinned>`), 'the pin after the big one still goes');
    assert.ok(!context.includes('Line 001: the nightly'), 'the big pin is named, never cut');
  });

  it('--client codex sizes for Codex and says so; a bad --client is a warning', () => {
    const root = workspace([PIN_RULE, BIG_PIN]);
    fs.writeFileSync(path.join(root, 'docs', 'big-note.md'), BIG_NOTE);
    const note = (JSON.parse(hook(event('session-start-compact', root), ['--client', 'codex']).stdout).hookSpecificOutput.additionalContext as string).split('\n')[0];
    assert.match(note, /at most 9\u202f500 characters for Codex\)\. They still apply\. Not re-injected: docs\/big-note\.md \([\d\u202f]+ tokens; Codex keeps 10\u202f000 characters of a hook; open it with read_document\)\. The rules of AGENTS\.md are not repeated: Codex loads AGENTS\.md itself\.$/);
    const codexEvent = event('session-start-compact', root).replace('/home/dev/.claude/projects/-work-payment-service/', '/home/dev/.codex/sessions/');
    assert.match(JSON.parse(hook(codexEvent).stdout).hookSpecificOutput.additionalContext, /characters for Codex\)/, 'detected from the transcript path');
    assert.deepEqual(hook(event('session-start-compact', root), ['--client', 'cursor']), { code: 0, stdout: '', stderr: 'ctxctl hook: --client must be one of claude-code, codex, got "cursor"\n' });
  });

  // Issue 28, item 7: no duplicate injection.
  it('Codex: the AGENTS.md rules are not repeated (Codex loads them itself), the pins go', () => {
    const root = workspace([PIN_NOTE]);
    const context: string = JSON.parse(hook(event('session-start-startup', root), ['--client', 'codex']).stdout).hookSpecificOutput.additionalContext;
    assert.match(context, /^\[Context Control\] Re-injected on startup, verbatim: 1 pinned block \(.*\)\. They still apply\. The rules of AGENTS\.md are not repeated: Codex loads AGENTS\.md itself\.\n\n<pinned /);
    assert.ok(!context.includes('<rules'), 'no rules block');
  });

  it('a resume of a session that already holds the same injection adds nothing; a compaction, a change or another session injects again', () => {
    const root = workspace([PIN_NOTE]);
    const compact = hook(event('session-start-compact', root));
    assert.match(JSON.parse(compact.stdout).hookSpecificOutput.additionalContext, /^\[Context Control\] Re-injected on compact/);
    const resume = hook(event('session-start-resume', root));
    assert.deepEqual(resume, { code: 0, stdout: '', stderr: 'ctxctl hook: this session already holds the same re-injection (from compact): not repeated on resume\n' });
    // Another session id: injected.
    const other = hook(event('session-start-resume', root).replace('3f9c2a71-5b0e-4c8d-9a14-2e7b6f0d1c93', '00000000-0000-4000-8000-000000000000'));
    assert.match(JSON.parse(other.stdout).hookSpecificOutput.additionalContext, /^\[Context Control\] Re-injected on resume/);
    // The pins changed: the resume injects the new ones.
    fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([PIN_RULE, PIN_NOTE]));
    assert.match(JSON.parse(hook(event('session-start-resume', root)).stdout).hookSpecificOutput.additionalContext, /and 2 pinned blocks/);
    // A second compaction drops the context again: injected again.
    assert.match(JSON.parse(hook(event('session-start-compact', root)).stdout).hookSpecificOutput.additionalContext, /^\[Context Control\] Re-injected on compact/);
    assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(path.join(root, '.context', 'hook-sessions.json'), 'utf8'))), ['sessions']);
  });

  it('started in a subfolder (the event cwd is docs/), the hook finds the repository top and its AGENTS.md and pins', () => {
    const root = workspace([PIN_NOTE]);
    const context: string = JSON.parse(hook(event('session-start-compact', path.join(root, 'docs'))).stdout).hookSpecificOutput.additionalContext;
    assert.match(context, /^\[Context Control\] Re-injected on compact, verbatim: the rules of AGENTS\.md and 1 pinned block /);
    assert.ok(context.includes(`<pinned source="docs/runbook.md#L3-L3" label="on call">\n${PIN_NOTE.text}\n</pinned>`));
  });

  // A regression: one malformed entry used to drop everything, the rules too.
  it('one malformed entry in pins.json is skipped and named; the rules and the good pins still go', () => {
    const root = workspace();
    fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([PIN_RULE, { id: 'bad', source: 'docs/runbook.md' }, PIN_NOTE]));
    const r = hook(event('session-start-compact', root));
    assert.equal(r.stderr, '');
    const context: string = JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
    assert.match(
      context.split('\n')[0],
      /^\[Context Control\] Re-injected on compact, verbatim: the rules of AGENTS\.md and 2 pinned blocks \([\d\u202f]+ tokens, budget 11\u202f000; at most 9\u202f500 characters for Claude Code\)\. They still apply\. Not re-injected: \.context\/pins\.json: pin 2 skipped: "text" must be a string \("" for a whole-file pin, read from the file\)\.$/,
    );
    assert.ok(context.includes(`<rules source="AGENTS.md">\n${AGENTS_TEXT}\n</rules>`));
    assert.ok(context.includes(`<pinned source="AGENTS.md#L28-L28" label="compat">\n${PIN_RULE.text}\n</pinned>`));
    assert.ok(context.includes(`<pinned source="docs/runbook.md#L3-L3" label="on call">\n${PIN_NOTE.text}\n</pinned>`));
  });

  it('UserPromptSubmit: nothing by default; a one-line status or the budgeted context with --on-prompt', () => {
    const root = workspace();
    const input = event('user-prompt-submit', root);
    assert.deepEqual(hook(input), { code: 0, stdout: '', stderr: '' });
    const status = JSON.parse(hook(input, ['--on-prompt', 'status']).stdout);
    assert.equal(status.hookSpecificOutput.hookEventName, 'UserPromptSubmit');
    assert.match(status.hookSpecificOutput.additionalContext, /^\[Context Control\] Context budget: [\d\u202f]+ of 11\u202f000 tokens \(max_input\) for this task; \d+ selected, \d+ rejected(, \d+ \w+)*\.$/);
    const context = JSON.parse(hook(input, ['--on-prompt', 'context']).stdout).hookSpecificOutput.additionalContext as string;
    assert.ok(context.includes('<task source="task" trust="user">\nWhy do legacy POS terminals get 400 on POST /v1/payments since 2.14? paymentMethod\n</task>'));
    assert.ok(context.includes('<pinned source="docs/runbook.md#L3-L3" trust="user" label="on call">'), 'the request\'s own pinned block');
    assert.doesNotMatch(context, /FINAL REQUEST/);
    // Issue 28, item 2: sized for Claude Code's 10 000 characters of a hook (it showed a 2 KB preview of 25 KB).
    assert.ok(context.length <= 9_500, `${context.length}`);
    assert.match(context, /^\[Context Control\] Sized for the client: Claude Code keeps 10\u202f000 characters of a hook; assembled at max_input [\d\u202f]+ instead of 11\u202f000 tokens \([\d\u202f]+ characters at first\)\.\n\[Context Control\] Context budget: /);
    assert.ok(context.includes('<rules source="AGENTS.md" trust="project-rule">'), 'the rules still go');
  });

  it('bad input exits 0 with one warning line on stderr and nothing on stdout', () => {
    const root = workspace();
    const cases: [string, string[], RegExp][] = [
      ['not json', [], /^ctxctl hook: the hook event on stdin is not JSON \(.+\); nothing added\n$/],
      ['[1,2]', [], /^ctxctl hook: the hook event on stdin must be a JSON object; nothing added\n$/],
      ['{"source":"compact"}', [], /^ctxctl hook: the hook event has no "hook_event_name"; nothing added\n$/],
      ['{"hook_event_name":"SessionStart","source":"compact"}', [], /^ctxctl hook: no workspace: pass --workspace, .*; nothing added\n$/],
      [event('session-start-compact', path.join(root, 'missing')), [], /^ctxctl hook: .*missing: workspace folder not found; nothing added\n$/],
      [event('session-start-compact', root), ['--on-prompt', 'always'], /^ctxctl hook: --on-prompt must be one of none, status, context, got "always"\n$/],
    ];
    for (const [input, args, stderr] of cases) {
      const r = hook(input, args);
      assert.equal(r.code, 0, input);
      assert.equal(r.stdout, '', input);
      assert.match(r.stderr, stderr);
    }
    fs.writeFileSync(path.join(root, '.context', 'policy.yaml'), 'envelope: { window: lots }\n');
    const broken = hook(event('session-start-compact', root));
    assert.equal(broken.code, 0);
    assert.equal(broken.stdout, '');
    assert.match(broken.stderr, /^ctxctl hook: \.context\/policy\.yaml:1:\d+: .*; nothing added\n$/);
  });

  it('other events are ignored silently', () => {
    const r = hook(JSON.stringify({ hook_event_name: 'Stop', cwd: workspace() }));
    assert.deepEqual(r, { code: 0, stdout: '', stderr: '' });
  });
});
