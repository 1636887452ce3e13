import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { resolvePolicy } from '../../../src/core/policy';
import { loadPolicy } from '../../../src/core/sources/snapshot';
import { assembleRequest, findWindow } from '../../../src/vscode/worker/load';
import { EXAMPLE } from '../helpers';

/**
 * The editor's worker runs no window search after an assembly: the panel asks for it when it shows the "Dropped to
 * fit" banner (findWindow with the assembly's ticket); the answer is kept for the same inputs, and a newer
 * assembly of the folder supersedes an older ticket, also while its search runs.
 */
describe('the window that fits the dropped evidence: found on demand', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-fit-demand-'));
  fs.cpSync(EXAMPLE, root, { recursive: true });
  const at = (window: number) => ({
    root,
    task: path.join(root, 'ticket.md'),
    cwd: root,
    policy: resolvePolicy(loadPolicy(root, path.join(root, '.context', 'policy.yaml')), { envelope: { window }, source: 'settings' }),
    pins: [],
    sessionFile: path.join(root, '.context', 'session.jsonl'),
  });
  const options = { model: 'gpt-4o', shape: 'openai' as const };
  const assemble = (window: number) => assembleRequest({ snapshot: at(window), options }, () => {});

  it('an assembly that dropped evidence gives a ticket, no window; asked for, the window sends it all', async () => {
    const first = assemble(6500);
    assert.ok(first.fit && first.fit.sources.length > 0, 'at 6 500 the budget drops key evidence');
    assert.equal(first.fit.window, undefined, 'no search ran with the assembly');
    assert.equal(typeof first.fit.ticket, 'number');
    const found = await findWindow(root, first.fit.ticket as number);
    assert.equal(found.superseded, undefined);
    assert.ok(found.window !== undefined && found.window > 6500, `a window was found: ${found.window}`);
    const there = assemble(found.window as number);
    assert.equal(there.fit, undefined, 'at that window nothing key is dropped');
    const sent = new Set(there.assembly.blocks.map((b) => b.source.replace(/#.*$/, '')));
    for (const s of first.fit.sources) assert.ok(sent.has(s), `${s} is sent at ${found.window}`);
    // The same inputs again, once searched: the window comes with the assembly, no ticket, nothing to ask. (The
    // assembly after the first search may differ from the first: the search counted exactly what was estimated
    // before, and the index shows those counts; that one is searched on its own.)
    const second = assemble(6500).fit;
    if (second?.ticket !== undefined) await findWindow(root, second.ticket);
    const again = assemble(6500).fit;
    assert.equal(again?.ticket, undefined);
    assert.ok(again?.window !== undefined && again.window > 6500, `the window is given at once: ${JSON.stringify(again)}`);
  });

  it('a newer assembly of the folder supersedes a ticket, before and during its search', async () => {
    const older = assemble(6400);
    assert.equal(typeof older.fit?.ticket, 'number');
    const searching = findWindow(root, older.fit?.ticket as number);
    // Taken in while the search waits for its first turn: the search stops.
    const newer = assemble(6300);
    assert.deepEqual(await searching, { superseded: true });
    assert.deepEqual(await findWindow(root, older.fit?.ticket as number), { superseded: true });
    assert.equal(typeof newer.fit?.ticket, 'number');
    assert.notEqual(newer.fit?.ticket, older.fit?.ticket);
  });

  it('nothing dropped: no fit, no ticket', () => {
    assert.equal(assemble(40000).fit, undefined);
  });
});
