import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors';
import { problemsOf } from '../../../src/core/problems';
import { pinSizeVerdict } from '../../../src/core/sources/pin-budget';
import { itemContext } from '../../../src/vscode/views/item-context';

describe('pin size, Problems, item actions', () => {
  it('asks before pinning a file whose estimate exceeds the free room, with both figures', () => {
    // Estimated by the file's type (estimate.ts): a log runs about 2.5 characters per token, Markdown about 4.2.
    const big = pinSizeVerdict('logs/huge.log', 4 * 1024 * 1024, 11000, 6210);
    assert.equal(big.estimate, 1677722);
    assert.equal(big.ask, true);
    assert.equal(big.message, 'Pin logs/huge.log? It is about ~1\u202f677\u202f722 tokens (estimated from its 4.0 MB) but only 6\u202f210 tokens are free under max_input 11\u202f000. A pinned file is mandatory: requests will be refused until you unpin it or raise the envelope.');
    assert.equal(pinSizeVerdict('a.md', 3600, 11000, 6210).ask, false);
    assert.equal(pinSizeVerdict('a.md', 3600, 11000, 858).ask, false, '3 600 bytes of Markdown: about 858 tokens');
    assert.equal(pinSizeVerdict('a.md', 3600, 11000, 857).ask, true);
    assert.equal(pinSizeVerdict('a.md', 36000, 11000, undefined).ask, false, 'no request yet: the whole max_input is free');
    assert.match(pinSizeVerdict('a.md', 3600, 11000, 0).message, /\(estimated from its 4 KB\) but only 0 tokens are free/);
  });

  it('turns the error and the file warnings of a run into Problems with line and column', () => {
    const files = new Set(['.context/policy.yaml', 'docs/adr/0001.md', '.context/pins.json', 'src/a.ts']);
    const isFile = (f: string) => files.has(f);
    const problems = problemsOf(
      [
        { source: 'docs/adr/0001.md', line: 3, column: 7, message: 'front matter is not YAML' },
        { source: '.context/pins.json', message: 'pin 2 cannot be read' },
        { source: 'src/a.ts', line: 12, rule: 'aws-key', message: 'secret redacted (aws-key): not sent' },
        { source: 'task', message: 'docs/foo.md does not exist; treated as text' },
        { source: 'builtin:system', message: 'x' },
        { source: 'docs/gone.md', line: 1, message: 'not a file any more' },
      ],
      new InputError('envelope.window must be a positive number', '.context/policy.yaml', 4, 11),
      isFile,
    );
    assert.deepEqual(problems, [
      { file: '.context/policy.yaml', line: 4, column: 11, severity: 'error', message: 'envelope.window must be a positive number' },
      { file: 'docs/adr/0001.md', line: 3, column: 7, severity: 'warning', message: 'front matter is not YAML' },
      { file: '.context/pins.json', line: 1, severity: 'warning', message: 'pin 2 cannot be read' },
      { file: 'src/a.ts', line: 12, severity: 'information', message: 'secret redacted (aws-key): not sent' },
    ]);
    assert.deepEqual(problemsOf([], new Error('boom'), isFile), []);
  });

  it('gives tree items the actions that apply: overrides for documents and tool output, pin/open/copy for other files, none for builtins', () => {
    const o = { include: ['docs/in.md'], exclude: ['docs/out/'] };
    assert.deepEqual(
      [
        itemContext('document', 'docs/a.md', o), itemContext('decision', 'docs/in.md', o), itemContext('document', 'docs/out/x.md', o),
        itemContext('tool_result', 'app.log', o), itemContext('pinned', 'notes.md#L1-L3', o), itemContext('system_instructions', 'builtin:system', o),
        itemContext('session_group', '.context/session.jsonl#e17', o), itemContext('current_task', 'task', o),
      ],
      ['ctxItem', 'ctxItem.included', 'ctxItem.excluded', 'ctxItem', 'ctxFile', undefined, undefined, undefined],
    );
  });
});
