import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Stopwatch } from '../../../src/core/chain/stopwatch';
import type { Manifest } from '../../../src/core/report/manifest';
import { runLogLines } from '../../../src/core/run-log';

const manifest = {
  model: 'gpt-4o',
  encoding: 'o200k_base',
  budget: { final: 8754, max_input: 11000, mandatory: 2166 },
  selected: [{ source: 'AGENTS.md', kind: 'agents_md', reason: 'mandatory' }],
  rejected: [{ source: 'docs/old.md', kind: 'document', reason: 'excluded by you' }],
  trimmed: [],
  offloaded: [],
  indexed: [],
  compacted: [],
  degraded: [{ source: 'app.log', kind: 'tool_result', reason: 'ladder 1: trimmed the largest tool result' }],
  warnings: [{ source: 'docs/x.md', line: 3, message: 'front matter is not YAML' }],
} as unknown as Manifest;

describe('the log channel lines (core/run-log.ts)', () => {
  it('one run: the outcome and duration, each stage time, then what each stage decided', () => {
    const ticks = [0, 2.5, 14, 1014];
    const watch = new Stopwatch(() => ticks.shift()!);
    watch.lap('collect', 1);
    watch.lap('relevance', 2);
    assert.equal(watch.lap('trim', 'value'), 'value', 'a lap returns the stage value unchanged');
    assert.deepEqual(runLogLines({ kind: 'ok', manifest, timings: watch.laps }, 1234), [
      'run ok in 1\u202f234 ms: gpt-4o (o200k_base), 8\u202f754 / 11\u202f000 tokens, protected 2\u202f166',
      '  stages: collect 2.5 ms · relevance 12 ms · trim 1\u202f000 ms',
      '  selected: 1',
      '  rejected (collect, prune, overrides, fill): 1',
      '    docs/old.md: excluded by you',
      '  trimmed (trim): 0',
      '  offloaded (offload): 0',
      '  indexed (disclose, fill): 0',
      '  compacted (session): 0',
      '  ladder steps (enforce): 1',
      '    app.log: ladder 1: trimmed the largest tool result',
      '  warnings: 1',
      '    docs/x.md:3: front matter is not YAML',
    ]);
  });

  it('a refused or failed run: its first line is the outcome, the rest of the message follows', () => {
    assert.deepEqual(runLogLines({ kind: 'refused', message: 'the mandatory blocks need 12 000 tokens\n  pinned ticket.md 9 000' }, undefined), ['run refused: the mandatory blocks need 12 000 tokens', '  pinned ticket.md 9 000']);
  });
});
