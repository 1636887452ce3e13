import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ctl, fifo, fingerprint, previewJson, spawnCli, warningLines, workspace } from './hostile';

const pinsWorkspace = (pins: string, extra: Record<string, string> = {}) => workspace({ 'AGENTS.md': '# Rules\n', '.context/pins.json': pins, ...extra });

describe('red team: pins', () => {
  // One malformed entry never drops the others: each is skipped and named (its index and why); the rules and the
  // good pins still go.
  const badEntries: [string, string, string[]][] = [
    ['a list of null, a number and a string', '[null, 5, "str"]', ['pin 1 skipped: expected an object {"source", "text"}, got null', 'pin 2 skipped: expected an object {"source", "text"}, got 5', 'pin 3 skipped: expected an object {"source", "text"}, got "str"']],
    ['a number in second place', '[{"source": "a.md", "text": "x"}, 5]', ['pin 2 skipped: expected an object {"source", "text"}, got 5']],
    ['a string entry', '["AGENTS.md"]', ['pin 1 skipped: expected an object {"source", "text"}, got "AGENTS.md"']],
    ['a pin without source', '[{"id": "p", "text": "keep"}]', ['pin 1 skipped: "source" must be a workspace-relative path']],
    ['a pin without text', '[{"id": "p", "source": "AGENTS.md"}]', ['pin 1 skipped: "text" must be a string ("" for a whole-file pin, read from the file)']],
    ['a pin with startLine 0', '[{"source": "AGENTS.md", "text": "x", "startLine": 0}]', ['pin 1 skipped: "startLine" must be a line number (1 or more)']],
    ['endLine before startLine', '[{"source": "AGENTS.md", "text": "x", "startLine": 5, "endLine": 2}]', ['pin 1 skipped: "endLine" needs a "startLine" at or before it']],
  ];
  for (const [what, text, messages] of badEntries) {
    it(`pins.json holding ${what}: each bad entry skipped and named, the call completes`, async () => {
      const root = pinsWorkspace(text);
      const before = fingerprint(root);
      const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
      assert.deepEqual(warningLines(p).filter((w) => w.startsWith('.context/pins.json')), messages.map((m) => `.context/pins.json: ${m}`));
      assert.ok(p.manifest.selected.some((b) => b.kind === 'agents_md'), 'the rules still go');
      assert.deepEqual(fingerprint(root), before);
    });
  }

  const bad: [string, string, string][] = [
    ['an object instead of a list', '{"source": "AGENTS.md"}', 'pins file must hold a JSON list'],
    ['invalid JSON', '[{"source": ', 'invalid pins file: Unexpected end of JSON input'],
  ];
  for (const [what, text, message] of bad) {
    it(`pins.json holding ${what}: exit 2 and one line naming the file`, async () => {
      const root = pinsWorkspace(text);
      const before = fingerprint(root);
      const r = await ctl(['preview', '--workspace', root, '--task', 'x']);
      assert.deepEqual([r.code, r.err], [2, `ctxctl: .context/pins.json: ${message}\n`]);
      assert.deepEqual(fingerprint(root), before);
    });
  }

  it('pins.json as a folder: exit 2, one line', async () => {
    const root = workspace({ 'AGENTS.md': '# Rules\n', '.context/pins.json/x': '' });
    const r = await ctl(['preview', '--workspace', root, '--task', 'x']);
    assert.deepEqual([r.code, r.err], [2, 'ctxctl: .context/pins.json: is a folder, not a pins file (a JSON list)\n']);
  });

  it('pins.json as a FIFO is skipped with a warning, never opened (the call completes)', () => {
    const root = workspace({ 'AGENTS.md': '# Rules\n' });
    fifo(path.join(root, '.context', 'pins.json'));
    const r = spawnCli(['preview', '--workspace', root, '--task', 'x', '--json']);
    assert.equal(r.timedOut, false);
    assert.deepEqual(warningLines(previewJson(r)), ['.context/pins.json: skipped: a FIFO (named pipe), never opened; no pins read']);
  });

  it('a whole-file pin stored as {"text": ""} (as the editor mirrors it) sends the file\'s text, not an empty block', async () => {
    const root = pinsWorkspace('[{"id": "w", "source": "docs/constraints.md", "text": "", "label": "constraints"}]', { 'docs/constraints.md': '# Constraints\n\nPINNED-CANARY: amounts are integers in cents.\n' });
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.ok(JSON.stringify(p.request).includes('PINNED-CANARY: amounts are integers in cents.'));
    assert.ok(p.manifest.selected.some((s) => s.kind === 'pinned' && s.source === 'docs/constraints.md'));
  });

  it('a pin of .env is never sent: reported as unreadable, with the reason', async () => {
    const root = pinsWorkspace('[{"id": "e", "source": ".env", "text": "DB_PASSWORD=hunter2hunter2"}]', { '.env': 'DB_PASSWORD=hunter2hunter2\n' });
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.equal(JSON.stringify(p).includes('hunter2hunter2'), false);
    assert.ok(warningLines(p).includes('.env: pinned block cannot be read (a secret file (by name) is never sent): it is NOT in this request; unpin it or restore the file'), warningLines(p).join('\n'));
  });

  it('a pin naming a file outside the workspace ("../../etc/hostname") is refused, never read', async () => {
    const root = pinsWorkspace('[{"id": "o", "source": "../../etc/hostname", "text": ""}]');
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.ok(warningLines(p).includes('../../etc/hostname: pinned block cannot be read (outside the workspace): it is NOT in this request; unpin it or restore the file'));
  });

  it('a whole-file pin of a link that leads outside the workspace is refused, the target never read', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-outside-'));
    fs.writeFileSync(path.join(outside, 'x.md'), 'OUTSIDE-PIN-CANARY\n');
    const root = pinsWorkspace('[{"id": "l", "source": "linked.md", "text": ""}]');
    fs.symlinkSync(path.join(outside, 'x.md'), path.join(root, 'linked.md'));
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.equal(JSON.stringify(p).includes('OUTSIDE-PIN-CANARY'), false);
    assert.ok(warningLines(p).includes('linked.md: pinned block cannot be read (a symbolic link leading outside the workspace): it is NOT in this request; unpin it or restore the file'));
  });

  it('a whole-file pin of a file that is gone is reported, never an empty block', async () => {
    const root = pinsWorkspace('[{"id": "g", "source": "docs/gone.md", "text": ""}]');
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.ok(warningLines(p).includes('docs/gone.md: pinned block cannot be read (the file was moved or deleted): it is NOT in this request; unpin it or restore the file'));
    assert.equal(p.manifest.selected.some((s) => s.kind === 'pinned'), false);
  });
});
