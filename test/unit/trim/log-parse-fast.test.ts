import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { collapseSpaces, ISO_TIME, mayHoldIsoTime, mayHoldOtherTime, messageOf, OTHER_TIME } from '../../../src/core/trim/log-parse';
import { TemplateMiner, templateText } from '../../../src/core/trim/templates';
import { mayHoldSecret } from '../../../src/core/redact/prefilter';
import { CI_MARK, mayMarkCi, NPM_LEVEL, statedLevel } from '../../../src/core/trim/severity';
import { HINT } from '../../../src/core/redact/rules';
import { javaLog, log, pythonLog } from './log-fixtures';
import { REPO } from '../helpers';

/** Every line of the Loghub-style fixtures, the generated JSON and logfmt logs, and lines made to sit on the edges. */
function lines(): string[] {
  const dir = path.join(REPO, 'test', 'fixtures', 'tool-output');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.log'));
  const out = files.flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'));
  for (const format of ['pino', 'slog', 'otel', 'logfmt'] as const) out.push(...log(format).split('\n'));
  out.push(...pythonLog().split('\n'), ...javaLog().split('\n'));
  out.push(
    '',
    '2026-11-12',
    '2026/11/12 08:00:01 boom',
    'x1234-5',
    '123-45 not a time',
    'at 2026-11-12-08.00.01.123456 db2',
    'Jun 14 15:16:01 combo sshd(pam_unix)[19939]: authentication failure',
    '[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6',
    '10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 500 2326',
    '081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 for block blk_38865049064139660 terminating',
    '17/06/09 20:10:40 INFO executor.CoarseGrainedExecutorBackend: Registered signal handlers',
    '03-17 16:13:38.811  1702  2395 E WindowManager: failed',
    'E0102 15:04:05.999999    1234 file.go:42] boom',
    '20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579',
    '[10.30 16:49:06] chrome.exe - proxy.cse.cuhk.edu.hk:5070 open through proxy',
    '{"level":50,"time":1794441600127,"msg":"ledger\\tcall \\"failed\\"","err":{"message":"a\\u0041b"}}',
    '{"level":40,"time":1794441600127,"msg":"tab\there"}',
    'tabs\tand  double   spaces\u00a0nbsp\u2028sep ',
    '  leading and trailing  ',
    'Kelvin \u212Aey, long \u017Fecret, \u0130stanbul token',
    'TOKEN upper, Key mixed, pAsS, curl -H, https://x, AKIA, ghp_, eyJ',
  );
  return out;
}

describe('pass 1 fast paths (log-parse.ts, prefilter.ts): the same answers as the regular expressions they skip', () => {
  const all = lines();

  it('mayHoldIsoTime is false only where ISO_TIME finds nothing', () => {
    let skipped = 0;
    for (const l of all) {
      if (mayHoldIsoTime(l)) continue;
      skipped++;
      assert.equal(ISO_TIME.test(l), false, l);
    }
    assert.ok(skipped > 100, `${skipped}`);
  });

  it('mayMarkCi is false only where neither CI_MARK nor NPM_LEVEL matches, and the marks still read after a Z time', () => {
    const edges = ['2026-12-01T10:00:03.000Z ##[error]boom', '2026-12-01T10:00:03Z ::warning file=a.ts::x', '2026-12-01T10:00:03.000Z npm ERR! code E404', '2026Z pnpm warn x', 'ZZ ##[warning]x', 'Z ##[error]x', 'xZ\t##[error]x', 'a b Z ##[error]x', '2026-12-01T10:00:03.000Z INFO npm warn x', '##[error]x', '::error::x', 'npm warn x', 'pnpm ERR! x'];
    let skipped = 0;
    for (const l of [...all, ...edges]) {
      const c = l.charCodeAt(0);
      if (mayMarkCi(l, c)) continue;
      skipped++;
      assert.equal(CI_MARK.test(l) || NPM_LEVEL.test(l), false, l);
    }
    assert.ok(skipped > 100, `${skipped}`);
    assert.deepEqual(
      edges.map((l) => statedLevel(l)),
      ['error', 'warn', 'error', 'warn', 'warn', 'error', 'error', 'error', 'info', 'error', 'error', 'warn', 'error'],
    );
  });

  it('mayHoldOtherTime is false only where OTHER_TIME finds nothing', () => {
    let skipped = 0;
    for (const l of all) {
      if (mayHoldOtherTime(l, mayHoldIsoTime(l))) continue;
      skipped++;
      assert.equal(OTHER_TIME.test(l), false, l);
    }
    assert.ok(skipped > 100, `${skipped}`);
  });

  it('collapseSpaces is replace(/\\s+/g, " ").trim(), tabs, no-break spaces and line separators included', () => {
    for (const l of all) assert.equal(collapseSpaces(l), l.replace(/\s+/g, ' ').trim(), JSON.stringify(l));
    assert.equal(collapseSpaces(' a\t b\u00a0c  '), 'a b c');
  });

  it('messageOf unescapes JSON messages with and without backslashes as JSON.parse does', () => {
    assert.equal(messageOf('{"level":50,"msg":"ledger\\tcall \\"failed\\"","err":{"message":"a\\u0041b"}}'), 'ledger\tcall "failed": aAb');
    assert.equal(messageOf('{"level":40,"msg":"tab\there"}'), 'tab\there');
    assert.equal(messageOf('{"level":40,"msg":"plain words"}'), 'plain words');
  });

  it('mayHoldSecret flags every line HINT flags, and exactly those on ASCII lines', () => {
    for (const l of all) {
      const hint = HINT.test(l);
      if (hint) assert.equal(mayHoldSecret(l), true, l);
      if (![...l].some((ch) => ch.charCodeAt(0) > 127)) assert.equal(mayHoldSecret(l), hint, l);
    }
  });
});

describe('the template miner re-uses the tokens of a message repeated (templates.ts)', () => {
  it('gives the clusters a miner gives the same messages without repeats in a row, and never shares a token array', () => {
    const a = 'open file a1 in now';
    const b = 'open file a1 in then';
    const miner = new TemplateMiner();
    const ids = [a, a, b, b, a, 'close file 2', 'close file 2'].map((m) => miner.add(m)!.id);
    assert.deepEqual(ids, [0, 0, 0, 0, 0, 1, 1]);
    assert.deepEqual(miner.clusters.map(templateText), ['open file <*> in <*>', 'close file <*>']);
    const fresh = new TemplateMiner();
    for (const m of [a, b, a, 'close file 2']) fresh.add(m);
    assert.deepEqual(fresh.clusters.map(templateText), miner.clusters.map(templateText));
    // The first cluster's template was widened after its message was masked: the next repeat still masks as before.
    const again = new TemplateMiner();
    const c = again.add(a)!;
    again.add(b);
    assert.equal(templateText(c), 'open file <*> in <*>');
    assert.equal(templateText(again.add('open file a1 in now x')!), 'open file <*> in now x');
    assert.equal(again.add(b)!.id, c.id);
  });
});

describe('statedLevel reads logfmt and bracketed levels only with their `=` and `[`', () => {
  it('still reads the levels those patterns read, and nothing on lines without them', () => {
    assert.equal(statedLevel('ts=1 level=error msg="boom"'), 'error');
    assert.equal(statedLevel('ts=1 LVL=warn msg=slow'), 'warn');
    assert.equal(statedLevel('[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6'), 'error');
    assert.equal(statedLevel('Dec 4 04:47:44 host app [core:warn] slow'), 'warn');
    assert.equal(statedLevel('Dec 4 04:47:44 host app level error without its equals sign'), undefined);
    assert.equal(statedLevel('Dec 4 04:47:44 host app error] without its bracket'), undefined);
  });
});
