import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnSync } from 'node:child_process';
import { trimOptions } from '../../../src/core/chain/trim';
import { defaultPolicy } from '../../../src/core/policy';
import { redactLines } from '../../../src/core/redact/apply';
import { fileLines } from '../../../src/core/sources/line-reader';
import { BRACKET_WORDS, COLUMN_WORDS, LEVEL_WORDS, levelOfWord } from '../../../src/core/trim/level-rule';
import { LineKernel, RUN_LINES } from '../../../src/core/trim/line-kernel';
import { redactedFileLines, STREAM_CHUNK_BYTES } from '../../../src/core/trim/lines';
import { trimLog } from '../../../src/core/trim/log';
import { useLineKernel, useTriggerFilter } from '../../../src/core/trim/log-bytes';
import { gatherPool } from '../../../src/core/trim/log-pool';
import { scanErrors, type LogScan } from '../../../src/core/trim/log-scan';
import { severityOf } from '../../../src/core/trim/severity';
import { mayBeEvidence, TRIGGER_WORDS } from '../../../src/core/trim/triggers';
import { counter } from '../helpers';
import { prng } from './fixtures';
import { javaLog, log, pythonLog } from './log-fixtures';

/**
 * The trigger filter (triggers.ts): a line without a trigger is an info line, so the line kernel counts it without
 * decoding it. Checked three ways: no line severity.ts calls an error or a warning lacks a trigger (on every
 * alternative of its vocabulary, in context and in any case, and on seeded random lines); the kernel's `quiet` stops
 * exactly at the lines mayBeEvidence names; and logs without a level column scan, pool and trim the same with the
 * filter, without it and streamed.
 */

/** One match of each alternative of severity.ts's expressions (and the level words), as they stand in a line. */
const MATCHES = [
  // UNCAUGHT, at the start of a line
  'Traceback (most recent call last):', 'Exception in thread "main"', 'panic: runtime error', 'fatal error: all goroutines are asleep', 'Segmentation fault', 'Killed',
  // EXIT_CODE
  'exit 2', 'exited with status 1', 'exit code 127', 'exit_code=3', 'returned 1', 'status code: 500', 'Process completed with exit code 1', 'the command failed here',
  // ERROR_WORDS
  'error', 'errors', 'errored', 'fail', 'fails', 'failed', 'failure', 'failures', 'failing', 'exception', 'exceptions', 'denied', 'refused', 'timeout', 'timeouts',
  'time out', 'timed out', 'times out', 'timedout', 'timesouts', 'panic', 'panicked', 'panics', 'unreachable', 'fatal', 'fatally', 'abort', 'aborts', 'aborted',
  'aborting', 'crash', 'crashes', 'crashed', 'crashing', 'segfault', 'segfaults', 'segfaulted', 'corrupt', 'corrupted', 'corruption', 'invalid', 'illegal', 'unable',
  'cannot', "can't", 'could not', "couldn't", 'not permitted', 'rejected', 'unavailable', 'killed', 'break-in', 'broken pipe', 'reset by peer', 'no route to host',
  'out of memory', 'oom', 'unauthorised', 'unauthorized', 'forbidden', 'mismatch', 'mismatches', 'mismatched', 'violation', 'violations', 'undeliverable', 'lost',
  'not found', 'missing', 'bad', 'halt', 'halted', 'link down', 'node down', 'interface down', 'host down', 'is down', 'went down', 'deny', 'user unknown',
  'unknown user', 'is full', 'no space', 'ANR in',
  // CAMEL_ERROR
  'sendSyncFailedBroadcast', 'onConnectionError', 'SocketTimeoutException', 'xRefused', 'xDenied', 'xFailure',
  // WARN_WORDS
  'warn', 'warning', 'warns', 'warnings', 'deprecated', 'deprecation', 'retry', 'retrying', 'retries', 'slow', 'slowly', 'degraded', 'throttled', 'throttling', 'backoff',
  'dropped', 'dropping', 'skipped', 'skipping', 'overload', 'overloaded', 'exceed', 'exceeded', 'exceeds', 'too high', 'too low', 'very high', 'very low',
  ...['latency', 'load', 'memory', 'disk', 'cpu', 'usage', 'water mark', 'watermark'].flatMap((w) => [`high ${w}`, `low ${w}`]),
  ...['latency', 'load', 'usage', 'temperature', 'pressure'].flatMap((w) => [`${w} high`, `${w} is high`, `${w} too high`, `${w} is too high`]),
  'threshold exceeded', 'threshold reached', 'threshold crossed', 'above threshold', 'above the threshold', 'unexpected', 'unexpectedly', 'not responding', 'reconnect',
  'reconnecting', 'reconnects', 'reconnected', 'did not', "didn't", 'frequent', 'flapping',
  // Stated levels: npm, CI marks, CBS, and every error and warning word of the rule in a column, a bracket, JSON and logfmt
  'npm ERR! code E404', 'npm warn deprecated', '##[error]boom', '::warning file=a.ts::x', '2016-09-28 04:30:30, Error                 CBS    x',
  ...COLUMN_WORDS.filter((w) => levelOfWord(w) !== 'info').map((w) => `2026-11-12 08:00:00 ${w} x`),
  ...BRACKET_WORDS.filter((w) => levelOfWord(w) !== 'info').map((w) => `[${w}] x`),
  ...[...LEVEL_WORDS.error, ...LEVEL_WORDS.warn].flatMap((w) => [`{"level":"${w}"}`, `level=${w} msg=x`]),
];
/** Levels stated without a word: JSON numbers, syslog priorities, logcat, klog, journald. */
const STARTS = ['{"level":50,"msg":"x"}', '{"level" : 40}', '{"msg":"a","level":\t60}', '{"severityNumber":17}', '{"severity_number":13,"body":"x"}', '<3>Nov 12 x', '<12>1 2026-11-12T08:00:00Z host app - - x', '03-17 16:13:38.811  1702  2395 E Tag: x', 'W/Tag(  123): x', 'E/Tag( 9): x', 'F/x(1): y', 'A/x(1): y', 'E0102 15:04:05.999999    1234 file.go:42] x', 'W1231 00:00:00.000000 1 a.go:1] x', 'PRIORITY=3', 'PRIORITY=4'];
const CONTEXTS = [(m: string) => m, (m: string) => `Nov 12 08:00:01 host app[42]: ${m}`, (m: string) => `10.0.0.1 - - [12/Nov/2026:00:00:00 +0000] "GET /x" 200 12 "${m}"`, (m: string) => `${m} after 3 attempts`];
const caseVariants = (s: string) => [s, s.toUpperCase(), s.toLowerCase(), s.replace(/[a-z]/gi, (c, k: number) => (k % 2 ? c.toUpperCase() : c.toLowerCase()))];

describe('the trigger words (triggers.ts)', () => {
  it('are lower case, none holds another, and they hold every error and warning level word', () => {
    for (const w of TRIGGER_WORDS) {
      assert.equal(w, w.toLowerCase());
      assert.ok(!TRIGGER_WORDS.some((o) => o !== w && w.includes(o)), w);
    }
    for (const w of [...LEVEL_WORDS.error, ...LEVEL_WORDS.warn]) assert.ok(TRIGGER_WORDS.some((t) => w.includes(t)), w);
    assert.ok(TRIGGER_WORDS.includes('err') && !TRIGGER_WORDS.includes('error') && TRIGGER_WORDS.includes('fail'));
  });

  it('every alternative of severity.ts that makes an error or a warning, in context and in any case, holds a trigger', () => {
    let evidence = 0;
    for (const m of [...MATCHES, ...STARTS]) {
      let seen = false;
      for (const ctx of CONTEXTS) {
        for (const line of caseVariants(ctx(m))) {
          if (severityOf(line) === 'info') continue;
          seen = true;
          evidence++;
          assert.ok(mayBeEvidence(line), `${severityOf(line)} without a trigger: ${JSON.stringify(line)}`);
        }
      }
      assert.ok(seen, `${JSON.stringify(m)} is an error or a warning in some context (else the list is wrong)`);
    }
    assert.ok(evidence > 1500, `${evidence} lines`);
  });

  it('an info line may hold no trigger, and a line with none is an info line (seeded random lines)', () => {
    assert.equal(mayBeEvidence('10.1.2.3 - - [12/Nov/2026:00:00:00 +0000] "GET /healthz HTTP/1.1" 200 12 "-" "curl/8.5.0"'), false);
    assert.equal(mayBeEvidence('Nov 12 08:00:01 host-3 systemd[1]: Started Session 42 of user deploy.'), false);
    const rand = prng(30);
    const pool = [...MATCHES.flatMap((m) => m.split(/(?=[ (:])/)), ...TRIGGER_WORDS.map((w) => w.slice(0, -1)), ' ', ' ', '  ', '\t', '-', '[', ']', ':', '=', '"', '{', '<', '0', '42', 'É', 'ſ', 'K', '\u00a0', 'ok', 'done', 'Started', 'host', 'E', 'W', '/'];
    let evidence = 0;
    for (let n = 0; n < 40_000; n++) {
      let line = '';
      for (let k = Math.floor(rand() * 8); k >= 0; k--) {
        const piece = pool[Math.floor(rand() * pool.length)];
        line += rand() < 0.3 ? piece.toUpperCase() : piece;
      }
      if (severityOf(line) === 'info') continue;
      evidence++;
      assert.ok(mayBeEvidence(line), `${severityOf(line)} without a trigger: ${JSON.stringify(line)}`);
    }
    assert.ok(evidence > 5000, `${evidence} lines`);
  });
});

describe("the line kernel's quiet run (line-kernel.wat)", () => {
  /** Lines near every rule's edge: words whole, cut, at a line's start and end, in any case, and the level starts. */
  function lines(seed: number, n: number): string[] {
    const rand = prng(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const quiet = ['10.0.0.1 - - [12/Nov/2026:00:00:00 +0000] "GET /x HTTP/1.1" 200 1', 'Nov 12 08:00:01 host systemd[1]: Started Session 1 of user deploy.', 'ok', '', 'é', '12 x', '1', '{', 'P', 'PR', 'E/', '03-1'];
    // pino's numeric levels, every digit after the key, with what may stand between (`\s`, `:`, non-ASCII).
    for (const d of '0123456789') for (const gap of [':', ' : ', ':\t', ':\u00a0', '', ':x', ': é']) quiet.push(`{"level"${gap}${d}0,"msg":"x"}`, `{"pid":1,"LEVEL"${gap}${d}`);
    const out: string[] = [];
    while (out.length < n) {
      const r = rand();
      const word = pick(TRIGGER_WORDS);
      const cut = word.slice(0, 1 + Math.floor(rand() * (word.length - 1)));
      const variant = pick(caseVariants(rand() < 0.5 ? word : cut));
      const base = pick(quiet);
      const at = Math.floor(rand() * (base.length + 1));
      out.push(r < 0.6 ? base : r < 0.9 ? base.slice(0, at) + variant + base.slice(at) : pick(STARTS).slice(0, 1 + Math.floor(rand() * 4)) + pick(['', ' x', '0', '-']));
    }
    return out;
  }

  for (const seed of [1, 2, 3]) {
    it(`stops exactly at the lines mayBeEvidence names, and gives every other line's start (seed ${seed})`, () => {
      const all = lines(seed, 20_000);
      const text = Buffer.from(all.join('\n') + '\n');
      const kernel = LineKernel.create(text.length + 64);
      assert.ok(kernel, 'WebAssembly with SIMD is there in Node');
      text.copy(kernel.buf);
      const starts: number[] = [];
      for (let p = 0; p < text.length; p = text.indexOf(10, p) + 1) starts.push(p);
      let i = 0;
      let stopped = 0;
      while (i < all.length) {
        const k = kernel.quiet(starts[i], text.length);
        for (let j = 0; j < k; j++) {
          assert.equal(kernel.starts[j], starts[i + j]);
          assert.equal(mayBeEvidence(all[i + j]), false, JSON.stringify(all[i + j]));
        }
        i += k;
        if (i === all.length) break;
        assert.equal(kernel.at, starts[i]);
        if (k < RUN_LINES) {
          assert.equal(mayBeEvidence(all[i]), true, `stopped at ${JSON.stringify(all[i])}`);
          stopped++;
          i++;
        }
      }
      assert.ok(stopped > 5000 && stopped < 15_000, `${stopped} lines stopped at`);
    });
  }

  it('stops at every trigger word, in each case, at every offset of a line (across its 16-byte blocks) and cut by its end', () => {
    // The kernel looks at 16 bytes at a time, and only where its nibble filter lets an anchor through: a word must
    // stop it wherever it stands, and one cut by the newline must not.
    const pad = 'x1 =/_.:"Zq';
    const lines: string[] = [];
    for (const word of [...TRIGGER_WORDS, '"level":5']) {
      for (const variant of caseVariants(word)) {
        for (let at = 0; at < 35; at++) {
          const head = pad.repeat(4).slice(0, at);
          lines.push(head + variant, head + variant + pad, head + variant.slice(0, -1), variant.slice(1) + pad.slice(0, at % 7));
        }
      }
    }
    const text = Buffer.from(lines.join('\n') + '\n');
    const kernel = LineKernel.create(text.length + 64)!;
    text.copy(kernel.buf);
    let p = 0;
    let stops = 0;
    for (const line of lines) {
      const k = kernel.quiet(p, p + line.length + 1);
      const evidence = mayBeEvidence(line);
      assert.equal(k, evidence ? 0 : 1, JSON.stringify(line));
      p += line.length + 1;
      if (evidence) stops++;
    }
    assert.equal(p, text.length);
    assert.ok(stops >= lines.length / 2, `${stops} of ${lines.length} lines stopped at`);
  });

  it('takes no line without its newline before the end it is given', () => {
    const text = Buffer.from('ok\nfine\nlast');
    const kernel = LineKernel.create(64)!;
    text.copy(kernel.buf);
    assert.equal(kernel.quiet(0, text.length), 2);
    assert.equal(kernel.at, 8);
    assert.equal(kernel.quiet(0, 5), 1);
    assert.equal(kernel.at, 3);
  });
});

describe('logs without a level column scan the same with the trigger filter, without it, and streamed', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-triggers-'));
  after(() => {
    useLineKernel('auto');
    useTriggerFilter(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What the scan found (its groups without their miners' clusters). */
  const found = (scan: LogScan) => {
    const { file: _file, ...rest } = scan;
    return { ...rest, groups: rest.groups.map(({ cluster: _c, ...g }) => g) };
  };
  /** And where the byte path put its checkpoints and which correlated lines it read. */
  const indexed = (scan: LogScan) => ({ starts: scan.file?.starts, total: scan.file?.total, correlated: scan.file?.correlated && [...scan.file.correlated].sort((a, b) => a[0] - b[0]) });

  /** Scan, pool and trimmed text: filter on (kernel), filter off (kernel), no kernel, each equal; the scan also equals the stream's. */
  function allWays(abs: string): LogScan {
    const streamed = scanErrors(redactLines(() => fileLines(abs, STREAM_CHUNK_BYTES)));
    const results = [];
    for (const [kernel, filter] of [['always', true], ['always', false], ['never', true]] as const) {
      useLineKernel(kernel);
      useTriggerFilter(filter);
      const lines = redactedFileLines(abs);
      const scan = scanErrors(lines);
      assert.ok(scan.file, 'read from its bytes');
      assert.deepEqual(found(scan), found(streamed), `kernel ${kernel}, filter ${filter}: the stream's scan`);
      const pool = gatherPool(lines, scan, 3, 20);
      const trimmed = [300, 3000].map((budget) => trimLog(lines, trimOptions(defaultPolicy(), counter, budget, 'logs/app.log')));
      results.push({ index: indexed(scan), pool: [[...pool.lines].sort((x, y) => x[0] - y[0]), pool.reasons], trimmed });
    }
    assert.deepEqual(results[1], results[0], 'filter off');
    assert.deepEqual(results[2], results[0], 'no kernel');
    return streamed;
  }

  function write(name: string, lines: string[]): string {
    const abs = path.join(dir, name);
    fs.writeFileSync(abs, lines.join('\n') + '\n');
    assert.ok(fs.statSync(abs).size > 256 * 1024, 'large enough for the kernel');
    return abs;
  }

  it('an nginx access log (errors only as 5xx, which are no level) and a syslog with 1 % error lines and stacks', () => {
    const rand = prng(5);
    const int = (n: number) => Math.floor(rand() * n);
    const access = Array.from({ length: 6000 }, () => `10.${int(256)}.${int(256)}.1 - - [12/Nov/2026:00:00:${String(int(60)).padStart(2, '0')} +0000] "GET /api/v1/orders?page=${int(100)} HTTP/1.1" ${int(100) === 0 ? 503 : 200} ${int(20000)} "-" "Mozilla/5.0 (X11; Linux x86_64)"`);
    allWays(write('access.log', access));
    const syslog: string[] = [];
    for (let i = 0; syslog.length < 12_000; i++) {
      const r = int(100);
      const id = `sess-${int(40)}`;
      syslog.push(
        r === 0
          ? `Nov 12 08:00:${String(i % 60).padStart(2, '0')} host-${int(8)} sshd[${int(30000)}]: error: maximum authentication attempts exceeded for root ${id}`
          : r === 1
            ? `Nov 12 08:00:01 host-1 app[7]: Connection slow, retrying ${id}`
            : r === 2
              ? 'java.lang.IllegalStateException: boom'
              : r === 3
                ? '\tat com.acme.Foo.bar(Foo.java:42)'
                : `Nov 12 08:00:${String(i % 60).padStart(2, '0')} host-${int(8)} CRON[${int(30000)}]: (root) CMD (run-parts /etc/cron.hourly) ${id}`,
      );
    }
    const scan = allWays(write('syslog.log', syslog));
    assert.ok(scan.errors > 200 && scan.warnings > 50, `${scan.errors} errors, ${scan.warnings} warnings`);
  });

  it('the fixture logs, repeated past the kernel’s threshold', () => {
    const repeat = (text: string) => {
      const lines = text.split('\n');
      const out: string[] = [];
      while (out.join('\n').length < 300 * 1024) out.push(...lines);
      return out;
    };
    allWays(write('java.log', repeat(javaLog())));
    allWays(write('python.log', repeat(pythonLog())));
    for (const format of ['pino', 'otel', 'slog', 'logfmt'] as const) allWays(write(`${format}.log`, repeat(log(format))));
  });

  // The 16 Loghub 2k samples (github.com/logpai/loghub), when a clone is named by CTXCTL_LOGHUB (never committed here).
  const loghub = process.env.CTXCTL_LOGHUB;
  it('the Loghub samples, when CTXCTL_LOGHUB names a clone', { skip: !loghub && 'CTXCTL_LOGHUB is not set' }, () => {
    const names = ['Android', 'Apache', 'BGL', 'HDFS', 'HPC', 'Hadoop', 'HealthApp', 'Linux', 'Mac', 'OpenSSH', 'OpenStack', 'Proxifier', 'Spark', 'Thunderbird', 'Windows', 'Zookeeper'];
    const all: string[] = [];
    for (const name of names) {
      const rel = `${name}/${name}_2k.log`;
      const tree = path.join(loghub!, rel);
      const text = fs.existsSync(tree) ? fs.readFileSync(tree, 'utf8') : spawnSync('git', ['--git-dir', loghub!, 'show', `HEAD:${rel}`], { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
      const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
      for (const line of lines) if (severityOf(line) !== 'info') assert.ok(mayBeEvidence(line), `${name}: ${JSON.stringify(line)}`);
      all.push(...lines);
    }
    allWays(write('loghub.log', all));
  });
});
