import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareZone } from '../../../src/core/chain/trim-share';
import { templateRowsText, trimLog } from '../../../src/core/trim/log';
import { templateRow, toSecond } from '../../../src/core/trim/log-rows';
import type { ErrorGroup } from '../../../src/core/trim/log-scan';
import { severityOf } from '../../../src/core/trim/severity';
import type { TrimOptions } from '../../../src/core/trim/types';

/**
 * Log recall on the shapes of real system logs (issue 25, item 4): excerpts written here in the shapes of sshd,
 * macOS syslog and RAS logs (none copied from a public corpus).
 */

const options = (maxTokens: number): TrimOptions => ({ maxTokens, count: (t) => Math.ceil(t.length / 4), windowLines: 2, maxStackLines: 10, headLines: 5, tailLines: 5, maxLineChars: 300, jsonRecords: 5 });

describe('failure words are whole words', () => {
  it('a failure word inside a longer word or an identifier is no failure', () => {
    for (const l of [
      'Jul  4 23:50:59 host-12 garcon[35461]: Invalidating watch set.',
      'Jul  5 13:44:18 host-12 bridge[646]: Daemon connection invalidated!',
      'Jul  1 11:38:18 host-12 kernel[0]: wl0: setup_keepalive: interval 900, retry_interval 30, retry_count 10',
      'Jul  1 11:38:18 host-12 clusterd[7]: failover to replica b complete',
      'Jul  1 11:38:18 host-12 app[7]: registered errorHandler for queue 4',
    ])
      assert.equal(severityOf(l), 'info', l);
  });

  it('the words themselves, and their plural and past forms, still are', () => {
    const cases: [string, string][] = [
      ['Dec 10 06:55:46 gate sshd[24200]: Invalid user webmaster from 10.0.0.8', 'error'],
      ['Dec 10 06:55:48 gate sshd[24200]: Failed password for invalid user webmaster from 10.0.0.8 port 38926 ssh2', 'error'],
      ['Jul  7 21:24:19 host-12 WindowServer[2]: CoreAnimation: 3 timeouts on fence 5fe83', 'error'],
      ['Jul  7 21:24:19 host-12 worker[2]: job 7 errored after 3 attempts', 'error'],
      ['Jul  7 21:24:19 host-12 worker[2]: 2 crashes since boot', 'error'],
      ['Jul  3 12:36:01 host-12 kernel[0]: Unexpectedly short payload for message 9', 'warn'],
      ['Jul  3 12:36:01 host-12 kernel[0]: waitForOk - retries = 7', 'warn'],
    ];
    for (const [l, level] of cases) assert.equal(severityOf(l), level, l);
  });
});

describe('a template of several wordings shows each (variants)', () => {
  // One template for the miner (same length, same first word, most tokens alike), three wordings of it.
  const lines: string[] = [];
  for (let i = 0; i < 300; i++) {
    const t = `Jul  1 09:${String(10 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
    if (i === 20) lines.push(`${t} host-12 kernel[0]: Sandbox: app(311) deny(1) network-outbound /private/var/run/resolver for pid 311 in session 4 of user 501`);
    else if (i === 90) lines.push(`${t} host-12 kernel[0]: Sandbox: app(312) deny(1) file-read-data /private/etc/hosts for pid 312 in session 4 of user 501`);
    else if (i === 150) lines.push(`${t} host-12 kernel[0]: Sandbox: app(313) deny(1) network-outbound /private/var/run/resolver for pid 313 in session 4 of user 501`);
    else if (i === 200) lines.push(`${t} host-12 kernel[0]: Sandbox: app(314) deny(1) mach-lookup com.example.captive for pid 314 in session 4 of user 501`);
    else lines.push(`${t} host-12 mDNSResponder[91]: step ${i} done`);
  }

  it('one row, and the first line of each wording verbatim (not the repeat of the first)', () => {
    const out = trimLog(() => lines, options(220));
    const rows = out.text.split('\n').filter((l) => /^ {2}E ×/.test(l));
    assert.deepEqual(rows, ['  E ×4 (first Jul  1 09:10:20, last Jul  1 09:13:20): Sandbox: app(311) deny(1) network-outbound /private/var/run/resolver for pid 311 in session 4 of user 501']);
    const verbatim = out.text.split('\n').filter((l) => l.startsWith('Jul '));
    assert.deepEqual(verbatim, [lines[20], lines[90], lines[200]]);
  });
});

describe('other wordings before more first lines', () => {
  // 30 errors (once each) whose first lines cannot all fit, then a template of three wordings, last of all.
  const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu amber basalt cobalt dune'.split(' ');
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) {
    const t = `Jul  1 1${Math.floor(i / 60) % 10}:${String(i % 60).padStart(2, '0')}:00`;
    if (i === 352) lines.push(`${t} host-12 kernel[0]: Sandbox: app(311) deny(1) network-outbound /private/var/run/resolver for pid 311 in session 4 of user 501`);
    else if (i === 355) lines.push(`${t} host-12 kernel[0]: Sandbox: app(312) deny(1) file-read-data /private/etc/hosts for pid 312 in session 4 of user 501`);
    else if (i === 358) lines.push(`${t} host-12 kernel[0]: Sandbox: app(314) deny(1) mach-lookup com.example.captive for pid 314 in session 4 of user 501`);
    else if (i >= 10 && i % 10 === 0 && i / 10 - 1 < words.length) lines.push(`${t} host-12 ${words[i / 10 - 1]}d[7]: ${words[i / 10 - 1]} could not open its store`);
    else lines.push(`${t} host-12 mDNSResponder[91]: step ${i} done`);
  }

  it('every row, each wording of the merged template verbatim, then as many first lines as fit', () => {
    const out = trimLog(() => lines, options(900));
    assert.ok(Math.ceil(out.text.length / 4) <= 900);
    const rows = out.text.split('\n').filter((l) => /^ {2}E ×/.test(l));
    assert.equal(rows.length, 1 + words.length, out.text);
    const verbatim = out.text.split('\n').filter((l) => l.startsWith('Jul '));
    // The other wordings (lines 355 and 358) of the last template are kept although not every first line is.
    assert.ok(verbatim.includes(lines[355]) && verbatim.includes(lines[358]), out.text);
    const firsts = Number(/first occurrence of (\d+) error templates verbatim/.exec(out.note)?.[1]);
    assert.ok(firsts >= 1 && firsts < 1 + words.length, out.note);
  });
});

describe('the room the log is given is used', () => {
  // 40 distinct error templates, once each, among info lines: every row fits, the first lines of some.
  const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu amber basalt cobalt dune ember flint garnet harbor iris jade krypton lumen marble nectar'.split(' ');
  const lines: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = `2026-03-0${1 + Math.floor(i / 500)} 10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
    lines.push(i % 50 === 10 ? `${t} ERROR [main] svc.${words[(i - 10) / 50]} - ${words[(i - 10) / 50]} store could not open segment ${i}` : `${t} INFO [main] svc.core - tick ${i}`);
  }

  it('as many first lines verbatim as fit after every row, not the next smaller step of a fixed ladder', () => {
    // Every row and every first line take about 1 930 tokens here (4 characters a token): 1 500 holds some of them.
    const out = trimLog(() => lines, options(1500));
    const used = Math.ceil(out.text.length / 4);
    assert.ok(used <= 1500, `${used}`);
    const firsts = Number(/^kept 40 of 40 error templates \(\d+ lines; first occurrence of (\d+) error templates verbatim\)/.exec(out.note)?.[1]);
    assert.ok(firsts > 8 && firsts < 40, out.note);
    // What is left is less than one more first line and its marker (about 30 tokens): the search took the most that fit.
    assert.ok(1500 - used < 30, `${1500 - used} tokens left`);
  });

  it('the rows alone (templateRowsText): every template, times to the second', () => {
    const text = templateRowsText(() => lines, 300)!;
    const rows = text.split('\n').slice(1);
    assert.equal(rows.length, 40);
    assert.equal(rows[0], '  E ×1 (at 2026-03-01 10:00:10): svc.alpha - alpha store could not open segment 10');
    assert.equal(templateRowsText(() => ['2026-03-01 10:00:00 INFO svc - fine'], 300), undefined);
  });
});

describe('rows at their tightest', () => {
  const group = (firstTs: string, lastTs: string, count = 2): ErrorGroup =>
    ({ severity: 'error', signature: 'x', cluster: { id: 0, tokens: [] }, ids: [], count, firstTs, lastTs, firstIndex: 0, lastIndex: 9, sample: 'data TLB error interrupt', sites: [] }) as ErrorGroup;

  it('times without their fraction of a second, the zone kept', () => {
    assert.equal(toSecond('2005-06-04-00.24.32.432192'), '2005-06-04-00.24.32');
    assert.equal(toSecond('2026-11-12T09:00:00.123Z'), '2026-11-12T09:00:00Z');
    assert.equal(toSecond('2026-11-12 09:00:00,123+02:00'), '2026-11-12 09:00:00+02:00');
    assert.equal(toSecond('20171223-22:15:29:606'), '20171223-22:15:29');
    assert.equal(toSecond('Jul  1 09:23:26'), 'Jul  1 09:23:26');
  });

  it('the last time without the day it shares with the first; a row as it was when not tight', () => {
    assert.equal(templateRow(group('2005-06-11-17.32.07.581048', '2005-06-11-23.26.23.330548'), 150, false, true), '  E ×2 (first 2005-06-11-17.32.07, last 23.26.23): data TLB error interrupt');
    assert.equal(templateRow(group('Jul  1 09:23:26', 'Jul  7 15:14:27'), 150, false, true), '  E ×2 (first Jul  1 09:23:26, last Jul  7 15:14:27): data TLB error interrupt');
    assert.equal(templateRow(group('2005-06-11-17.32.07.581048', '2005-06-11-23.26.23.330548'), 150), '  E ×2 (first 2005-06-11-17.32.07.581048, last 2005-06-11-23.26.23.330548): data TLB error interrupt');
  });
});

describe('the zone is shared by need first (every log its rows), then by evidence', () => {
  it('needs in equal parts, no one above its need; then the rest by weight', () => {
    // Three logs: one needs 100 for its rows, two need 2 000; 1 000 to share; the floor 50 each.
    const out = shareZone(1000, [
      { weight: 10, priority: 1, demand: 5000, need: 100 },
      { weight: 90, priority: 1, demand: 5000, need: 2000 },
      { weight: 30, priority: 1, demand: 5000, need: 2000 },
    ], 50);
    assert.deepEqual(out, [100, 450, 450]);
    // Past every need, the rest goes by weight.
    const more = shareZone(700, [
      { weight: 10, priority: 1, demand: 5000, need: 100 },
      { weight: 30, priority: 1, demand: 5000, need: 200 },
    ], 0);
    assert.deepEqual(more, [200, 500]);
  });

  it('without needs, by weight as before', () => {
    assert.deepEqual(shareZone(400, [{ weight: 1, priority: 1, demand: 5000 }, { weight: 3, priority: 1, demand: 5000 }], 0), [100, 300]);
  });
});
