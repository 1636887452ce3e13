import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { readAgentOutput } from '../../../src/cli/gateway-agents';
import { agentPathRefusal, parseAgentPreview } from '../../../src/core/gateway/agent-preview';
import { removeTemps, tempDir } from './shapes';

/** Claude Code's saved-output previews: what is recognised, and which files may ever be read. */

after(removeTemps);

describe('gateway: the agent preview', () => {
  it('recognises the <persisted-output> preview and its path; anything else is not one', () => {
    const p = parseAgentPreview('<persisted-output>\nOutput too large (140.2KB). Full output saved to: /h/.claude/projects/p/s/tool-results/t.txt\n\nPreview (first 2KB):\nabc\n</persisted-output>');
    assert.deepEqual(p, { path: '/h/.claude/projects/p/s/tool-results/t.txt', shown: 'first 2KB' });
    assert.equal(parseAgentPreview('Full output saved to: /etc/passwd'), undefined, 'only at the start of a result');
    assert.equal(parseAgentPreview('<persisted-output>\nno path here\n</persisted-output>'), undefined);
  });

  it('only a file directly in a tool-results folder under <agent dir>/projects/ may be read', () => {
    const dirs = ['/h/.claude'];
    assert.equal(agentPathRefusal('/h/.claude/projects/p/s/tool-results/t.txt', dirs), undefined);
    assert.match(agentPathRefusal('/h/.claude/projects/p/s/other/t.txt', dirs) ?? '', /not in a tool-results folder/);
    assert.match(agentPathRefusal('/h/.claude/tool-results/t.txt', dirs) ?? '', /outside/);
    assert.match(agentPathRefusal('/h/.claude/projects/../../etc/tool-results/passwd', dirs) ?? '', /outside/);
    assert.match(agentPathRefusal('tool-results/t.txt', dirs) ?? '', /absolute/);
  });

  it('reads through links only to where they really lead: a link out of the folder is refused', () => {
    const home = tempDir();
    const folder = path.join(home, '.claude', 'projects', 'p', 's', 'tool-results');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'ok.txt'), 'saved output');
    const outside = path.join(home, 'secret.txt');
    fs.writeFileSync(outside, 'not the agent output');
    fs.symlinkSync(outside, path.join(folder, 'link.txt'));
    const read = readAgentOutput([path.join(home, '.claude')]);
    assert.deepEqual(read(path.join(folder, 'ok.txt')), { text: 'saved output' });
    assert.ok('refused' in read(path.join(folder, 'link.txt')));
    assert.ok('refused' in read(path.join(folder, 'missing.txt')));
    assert.ok('refused' in read(outside));
  });
});
