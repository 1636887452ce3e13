import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { agentBinaries, runClient, allText, BIG_NOTE, dump, PIN_TEXT, REPO, RULE, setup, type Setup } from './harness';

/**
 * The real Claude Code (`claude -p`) with `ctxctl hook claude-code` as its SessionStart hook, talking straight to the
 * fake provider (no gateway, so whatever reaches the provider came from the hook or the client): a 26 KB whole-file
 * pin is named, not sent, and the rules and the small pin reach the model whole.
 */

describe('Claude Code with the SessionStart hook', () => {
  let s: Setup;
  let bin: string;
  before(async () => {
    bin = agentBinaries().claude;
    s = await setup(() => undefined, (home) => [path.join(home, '.claude')]);
    fs.writeFileSync(path.join(s.home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true }));
    fs.writeFileSync(path.join(s.root, 'docs', 'big-note.md'), BIG_NOTE);
    const pins = JSON.parse(fs.readFileSync(path.join(s.root, '.context', 'pins.json'), 'utf8')) as object[];
    fs.writeFileSync(path.join(s.root, '.context', 'pins.json'), JSON.stringify([{ id: 'big', source: 'docs/big-note.md', text: '' }, ...pins]));
    const command = `"${process.execPath}" "${path.join(REPO, 'dist', 'cli.js')}" hook claude-code`;
    fs.mkdirSync(path.join(s.root, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(s.root, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command }] }] } }));
  });
  after(async () => s && (await s.close()));

  it('a 26 KB pin: the note names it, the rules and the small pin arrive whole, the big text does not', { timeout: 120_000 }, async () => {
    const run = await runClient(bin, ['-p', 'Say hello.', '--output-format', 'json'], s.root, { HOME: s.home, ANTHROPIC_BASE_URL: s.upstream.url, ANTHROPIC_API_KEY: 'sk-ant-dummy-key-for-tests', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' });
    const where = dump(s, 'claude-code-hook');
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stderr}\n${run.stdout}\nrequests: ${where}`);
    const main = s.upstream.requests.filter((r) => /\/v1\/messages$/.test(r.path) && allText(r.json).includes('Say hello.'));
    assert.ok(main.length >= 1, `a main request (${where})`);
    const text = allText(main[0].json);
    assert.ok(text.includes('Not re-injected: docs/big-note.md (5\u202f214 tokens; Claude Code keeps 10\u202f000 characters of a hook; open it with read_document).'), `the note names the big pin (${where})`);
    assert.match(text, /Re-injected on startup, verbatim: the rules of AGENTS\.md and 1 pinned block /);
    assert.ok(text.includes(RULE), 'the rule arrives');
    assert.ok(text.includes(`<pinned source="docs/api.md#L2-L2" label="compat">\n${PIN_TEXT}\n</pinned>`), 'the small pin arrives whole');
    assert.ok(!text.includes('Line 200: the nightly settlement'), 'the big pin is not sent');
  });
});
