import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { trimOptions } from '../../../src/core/chain/trim';
import { defaultPolicy } from '../../../src/core/policy';
import { redactLines } from '../../../src/core/redact/apply';
import { fileLines } from '../../../src/core/sources/line-reader';
import { InfoColumn, LEVEL_ERROR, LEVEL_INFO, LEVEL_NONE, LEVEL_WARN, leadingLevelCode, leadingLevelOf } from '../../../src/core/trim/level-column';
import { INFO_VALUES, structuredInfo } from '../../../src/core/trim/structured-level';
import { redactedFileLines, STREAM_CHUNK_BYTES } from '../../../src/core/trim/lines';
import { trimLog } from '../../../src/core/trim/log';
import { useLineKernel } from '../../../src/core/trim/log-bytes';
import { gatherPool } from '../../../src/core/trim/log-pool';
import { CORR_RADIUS, scanErrors, type LogScan } from '../../../src/core/trim/log-scan';
import { severityOf, WORD_LEVELS } from '../../../src/core/trim/severity';
import type { Lines } from '../../../src/core/trim/types';
import { estimateTokensFromBytes } from '../../../src/core/estimate';
import { counter } from '../helpers';
import { prng, shapeRuns } from './fixtures';
import { javaLog, log, pythonLog } from './log-fixtures';

/**
 * The byte path of the log scan (log-bytes.ts) must see exactly what the streamed path sees: same scan, same pool,
 * same trimmed text, on every kind of line. Each case writes a log, then reads it both ways.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-log-bytes-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const streamed = (abs: string): Lines => redactLines(() => fileLines(abs, STREAM_CHUNK_BYTES));

/** The scan without the byte path's own index, with clusters (mutable miner state) left out. */
function comparable(scan: LogScan): unknown {
  const { file: _file, ...rest } = scan;
  return { ...rest, groups: rest.groups.map(({ cluster: _c, ...g }) => g) };
}

function bothWays(abs: string, expect: { bytes: boolean; correlated?: boolean }): LogScan {
  const fast = redactedFileLines(abs);
  const slow = streamed(abs);
  const a = scanErrors(fast);
  const b = scanErrors(slow);
  assert.equal(a.file !== undefined, expect.bytes, expect.bytes ? 'the byte path read the file' : 'the byte path gave way to the stream');
  if (expect.correlated !== undefined) assert.equal(a.file?.correlated !== undefined, expect.correlated);
  assert.deepEqual(comparable(a), comparable(b));
  const pa = gatherPool(fast, a, 3, 20);
  const pb = gatherPool(slow, b, 3, 20);
  assert.deepEqual(new Map([...pa.lines].sort((x, y) => x[0] - y[0])), new Map([...pb.lines].sort((x, y) => x[0] - y[0])));
  assert.deepEqual(pa.reasons, pb.reasons);
  for (const budget of [300, 1500]) {
    const options = trimOptions(defaultPolicy(), counter, budget, 'logs/app.log');
    assert.deepEqual(trimLog(fast, options), trimLog(slow, options));
  }
  return a;
}

const SECRET = 'AKIA' + 'Q3EGRFKZ7XNMTB5W';

/** A Spring Boot log with everything the byte path must get right, about `lines` records long. */
function springLog(seed: number, records: number, opts: { crlf?: boolean; bom?: boolean; tail?: boolean } = {}): Buffer {
  const rand = prng(seed);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
  const parts: Buffer[] = [];
  const push = (line: string | Buffer) => {
    const eol = opts.crlf && rand() < 0.5 ? '\r\n' : '\n';
    parts.push(typeof line === 'string' ? Buffer.from(line + eol) : Buffer.concat([line, Buffer.from(eol)]));
  };
  if (opts.bom) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  let t = Date.parse('2026-11-12T08:00:00.000Z');
  const ids: string[] = [];
  for (let n = 0; n < records; n++) {
    t += Math.floor(rand() * 50);
    const ts = new Date(t).toISOString();
    const corr = `${hex(8)}-${hex(4)}-${hex(4)}`;
    ids.push(corr);
    const r = rand();
    const head = `${ts} `;
    if (r < 0.01) {
      push(`${head}DEBUG 4821 --- [exec-${n % 7}] c.a.p.web.RequestLoggingFilter : [corr=${corr}] POST /v1/payments client=pos-legacy`);
      push(`${head}ERROR 4821 --- [exec-${n % 7}] c.a.p.api.ApiExceptionHandler : [corr=${corr}] Ledger call failed: Read timed out after ${Math.floor(rand() * 5000)}ms`);
      push('org.springframework.web.client.ResourceAccessException: I/O error on POST request');
      for (let f = 0; f < 1 + Math.floor(rand() * 8); f++) push(`\tat com.acme.payments.layer${f}.Handler.call(Handler.java:${100 + f})`);
      if (rand() < 0.5) push('Caused by: java.net.SocketTimeoutException: Read timed out');
    } else if (r < 0.02) {
      // An error whose correlated line is far away: beyond the search radius on one side.
      const old = ids[Math.max(0, ids.length - 1 - Math.floor(rand() * 3 * CORR_RADIUS))];
      push(`${head}ERROR 4821 --- [exec-1] c.a.p.ledger.LedgerClient : [corr=${old}] Settlement export failed for batch ${n}`);
    } else if (r < 0.05) push(`${head} WARN 4821 --- [exec-2] c.a.p.client.LedgerClient : [corr=${corr}] Ledger slow: ${Math.floor(rand() * 3000)} ms, retrying`);
    else if (r < 0.06) push(`${head} INFO 4821 --- [exec-3] c.a.p.Proxy : [corr=${corr}] upstream said [error] and level=error, not ours`);
    else if (r < 0.065) push(`${head} INFO 4821 --- [exec-3] c.a.p.Config : loaded key ${SECRET} from the environment`);
    else if (r < 0.07) push(`${head}ERROR 4821 --- [exec-4] c.a.p.Config : rejected key ${SECRET} for merchant café 日本 🎉`);
    else if (r < 0.075) push('');
    else if (r < 0.08) push(`${head}\u3000INFO ideographic space before the level`);
    else if (r < 0.085) push(Buffer.concat([Buffer.from(`${head} INFO 4821 --- [exec-5] c.a.p.Bytes : bad bytes `), Buffer.from([0xe2, 0x82, 0xff, 0xc3]), Buffer.from(' failed')]));
    else if (r < 0.09) push(`${head}\tINFO tab before the level, request ${corr} failed`);
    else if (r < 0.095) push(`Exception in thread "main" java.lang.IllegalStateException: ${corr}`);
    else push(`${head} INFO 4821 --- [exec-${n % 7}] c.a.p.api.PaymentController : [corr=${corr}] Payment created id=pay_${hex(12)} amount=${(rand() * 500).toFixed(2)} EUR`);
  }
  const body = Buffer.concat(parts);
  return opts.tail ? Buffer.concat([body, Buffer.from(`${new Date(t).toISOString()} ERROR 4821 --- [exec-0] c.a.p.End : last line without a newline\r`)]) : body;
}

function write(name: string, content: Buffer | string): string {
  const abs = path.join(dir, name);
  fs.writeFileSync(abs, content);
  return abs;
}

describe('the leading level column', () => {
  const cases: [string, number][] = [
    ['2026-11-12T00:00:00.026Z  INFO 4821 --- [exec-0] c.a.p.Foo : msg', LEVEL_INFO],
    ['2026-11-12 00:00:00,026 ERROR [main] c.a.Foo - boom', LEVEL_ERROR],
    ['14:22:01.123 [http-nio-8080-exec-1] WARN  c.a.Foo - slow', LEVEL_WARN],
    ['INFO:root:started', LEVEL_INFO],
    ['[2026-11-12 08:00:00] DEBUG x', LEVEL_INFO],
    ['[Thread-1] INFORMATION x', LEVEL_INFO],
    ['2026-11-12 08:00:00 WARNING disk at 91%', LEVEL_WARN],
    ['2026-11-12 08:00:00 FATAL out of memory', LEVEL_ERROR],
    ['    at com.x.Foo.bar(Foo.java:1)', LEVEL_NONE],
    ['Caused by: java.io.IOException: boom', LEVEL_NONE],
    ['2026-11-12 00:00:00 Payment INFO', LEVEL_NONE],
    ['2026-11-12\u00a0INFO x', LEVEL_NONE],
    ['2026-11-12 INFO\u3000x', LEVEL_NONE],
    ['INFOS x', LEVEL_NONE],
    ['ERRORS x', LEVEL_NONE],
    ['<3>INFO x', LEVEL_NONE],
    ['E0102 15:04:05.999999 1234 file.go:42] boom', LEVEL_NONE],
    ['{"level":"info","msg":"x"}', LEVEL_NONE],
    [' INFO leading space', LEVEL_NONE],
    ['', LEVEL_NONE],
    [`${'1'.repeat(70)} INFO too far`, LEVEL_NONE],
  ];
  for (const [line, level] of cases) {
    it(`${JSON.stringify(line.slice(0, 48))} → ${['none', 'info', 'warn', 'error'][level]}, from bytes and from the string`, () => {
      const bytes = Buffer.from(line);
      assert.equal(leadingLevelCode(bytes, 0, bytes.length), level);
      assert.equal(leadingLevelOf(line), level);
    });
  }

  it('is the line’s own level, whatever the message quotes after it', () => {
    assert.equal(severityOf('2026-11-12T08:00:00Z  INFO 1 --- [exec-3] c.a.p.Proxy : upstream said [error] and level=error'), 'info');
    assert.equal(severityOf('2026-11-12T08:00:00Z ERROR 1 --- [exec-3] c.a.p.Proxy : [info] retry level=info'), 'error');
    // No leading column: the bracketed level still counts.
    assert.equal(severityOf('[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6'), 'error');
  });
});

describe('the leading column by shape (InfoColumn)', () => {
  const SHAPES = [
    '2026-11-12T00:00:00.026Z  INFO 4821 --- [exec-0] c.a.p.Foo : msg',
    '2026-11-12 00:00:00,026 DEBUG [main] c.a.Foo - x',
    '14:22:01.123 [http-nio-8080-exec-1] INFO  c.a.Foo - ok',
    '[2026-11-12 08:00:00] TRACE x',
    'INFO:root:started',
    '2026/11/12 08:00:00 [worker_1] NOTICE x',
    '2026-11-12T08:00:00Z INFO',
    '2026-11-12T08:00:00Z INFO\r',
    '12:00 INF x',
  ];
  // Characters a mutation may put in the head of a line: digits and every class the rule tells apart, and bytes of
  // a multi-byte character.
  const ALPHABET = ['0', '7', '9', ':', '.', ',', '-', '+', '/', ' ', '\t', 'T', 'Z', 'I', 'N', 'S', 'a', 'z', '_', '[', ']', '|', '>', ';', '?', '@', '\r', 'é', '\u3000'];

  /** Lines from the shapes in runs, each with other digits, half of them mutated in their head. */
  function lines(rand: () => number, n: number): string[] {
    return shapeRuns(rand, SHAPES, n, 0.05, (line) => {
      const mutations = rand() < 0.5 ? 0 : 1 + Math.floor(rand() * 3);
      for (let m = 0; m < mutations; m++) {
        const at = Math.floor(rand() * Math.min(line.length, 40));
        const c = ALPHABET[Math.floor(rand() * ALPHABET.length)];
        line = rand() < 0.2 ? line.slice(0, at) : line.slice(0, at) + c + line.slice(at + (rand() < 0.7 ? 1 : 0));
      }
      return line;
    });
  }

  /**
   * Each line's answer from InfoColumn (`ask`), in a buffer as pass 1 reads into (its own, 4-byte aligned, whole
   * words; the lines after `pad` bytes), equals the full rules' (`rule`). Returns how many lines are info.
   */
  function sameAsRules(text: string[], pad: number, ask: (column: InfoColumn, s: number, e: number) => boolean, rule: (b: Buffer, s: number, e: number) => boolean): number {
    const bytes = Buffer.concat([Buffer.alloc(pad, 0x0a), Buffer.from(text.join('\n'))]);
    const buf = Buffer.alloc((bytes.length + 3) & ~3);
    bytes.copy(buf);
    const column = new InfoColumn(buf);
    let p = pad;
    let info = 0;
    for (const line of text) {
      const e = p + Buffer.byteLength(line);
      const expected = rule(buf, p, e);
      assert.equal(ask(column, p, e), expected, `line ${JSON.stringify(line)} at byte ${p}`);
      if (expected) info++;
      p = e + 1;
    }
    return info;
  }

  for (const pad of [0, 1, 2, 3]) {
    it(`tells exactly the lines leadingLevelCode calls info, 6 000 seeded lines starting at every alignment (pad ${pad})`, () => {
      const text = lines(prng(40 + pad), 6000);
      const info = sameAsRules(text, pad, (column, p, e) => column.isInfo(p, e), (b, p, e) => leadingLevelCode(b, p, e) === LEVEL_INFO);
      // The sample holds both kinds in number.
      assert.ok(info > 1500 && info < 5000, `${info} info lines`);
    });
  }

  const STRUCTURED = [
    '{"time":"2026-11-12T08:00:00.123Z","level":"INFO","msg":"payment 42 created","id":7}',
    '{"ts":1731398400.123,"lvl":"debug","caller":"api/x.go:42"}',
    '{"a1":12,"b":"x9","severity":"notice","msg":"m"}',
    '{"time":"2026-11-12T08:00:00Z","level":"WARN","msg":"slow"}',
    'time=2026-11-12T08:00:00Z level=info msg="payment 42 created"',
    'level=info ts=2026-11-12T08:00:00Z caller=main.go:7',
    'ts=1731398400 lvl="debug" x=1',
    'time=2026-11-12T08:00:00Z level=error msg=boom',
  ];
  const STRUCTURED_NOISE = ['0', '5', '"', ':', ',', '=', ' ', '\t', '{', '}', 'a', 'I', '_', '.', '\\', 'é', '-'];

  it('tells exactly the JSON and logfmt lines structuredInfo calls info, by their shape too (6 000 seeded lines)', () => {
    const rand = prng(77);
    const text = shapeRuns(rand, STRUCTURED, 6000, 0.05, (line) => {
      if (rand() >= 0.5) return line;
      const at = Math.floor(rand() * Math.min(line.length, 60));
      return line.slice(0, at) + STRUCTURED_NOISE[Math.floor(rand() * STRUCTURED_NOISE.length)] + line.slice(at + (rand() < 0.7 ? 1 : 0));
    });
    const info = sameAsRules(
      text,
      0,
      (column, p, e) => column.isInfo(p, e) || column.isStructuredInfo(p, e),
      (b, p, e) => leadingLevelCode(b, p, e) === LEVEL_INFO || structuredInfo(b, p, e),
    );
    assert.ok(info > 2000 && info < 5500, `${info} info lines`);
  });

  it('takes a digit for any digit, and nothing else for a digit', () => {
    const rows = ['2026-11-12T00:00:00.026Z  INFO a', '2026-11-12T09:59:41.999Z  INFO b', '2026-11-12T09:59:41:999Z  INFO c', '2026-11-12T09:59:41;999Z  INFO d', '2026-11-12T09:59:41.99 Z  INFO e', '2026-11-12T00:00:00.026Z  INFOS f', '2026-11-12T00:00:00.026Z  INFO', '2026-11-12T00:00:00.026Z  IN'];
    const buf = Buffer.alloc(256);
    buf.write(rows.join('\n'));
    const column = new InfoColumn(buf);
    const got: boolean[] = [];
    let p = 0;
    for (const row of rows) {
      got.push(column.isInfo(p, p + row.length));
      p += row.length + 1;
    }
    // A colon is a prefix character too; a semicolon is not; "INFOS" is no level word; a line cut inside the word has none.
    assert.deepEqual(got, [true, true, true, false, true, false, true, false]);
  });

  it('gives the full rule’s answer in a buffer that is not aligned to 4 bytes', () => {
    const pool = Buffer.alloc(96);
    const buf = pool.subarray(1, 93);
    buf.write('2026-11-12T00:00:00Z INFO a\n2026-11-12T00:00:01Z INFO b\nx 2026-11-12 INFO c');
    const column = new InfoColumn(buf);
    assert.deepEqual([column.isInfo(0, 27), column.isInfo(28, 55), column.isInfo(56, 75), column.isInfo(58, 75)], [true, true, false, true]);
  });
});

describe('JSON and logfmt info lines, from bytes', () => {
  const cases: [string, boolean][] = [
    ['{"level":"info","ts":1700000000.1,"msg":"handled"}', true],
    ['{"time":"2026-11-12T08:00:00Z","level":"INFO","msg":"handled"}', true],
    ['{ "severity_text" : "Debug", "body": "x" }', true],
    ['{"msg":"x","ok":true,"n":null,"level":"trace"}', true],
    ['{"level":30,"msg":"pino numbers read from bytes"}', true],
    ['{"time":1700000000123,"level":20,"pid":7,"msg":"disk failed"}', true],
    ['{"level" : 10 , "msg":"x"}', true],
    ['{"level":30}', true],
    ['{"level":40,"msg":"x"}', false],
    ['{"level":50,"msg":"x"}', false],
    ['{"level":3,"msg":"x"}', false],
    ['{"level":300,"msg":"x"}', false],
    ['{"level":30.5,"msg":"x"}', false],
    ['{"Level":30,"msg":"x"}', false],
    ['{"level":30,"msg":"x","lvl":"error"}', false],
    ['{"level":30,"msg":"x","SEVERITY":"info"}', false],
    ['{"level":30,"msg":"x","@l":"x"}', false],
    ['{"level":30,"msg":"x","s":"y"}', false],
    ['{"msg":"a \\"level\\":\\"error\\"","level":"info"}', false],
    ['{"time":"t","lvl":"error"}', false],
    ['{"a":{"b":1},"level":"info"}', false],
    ['{"level":"info"', true],
    ['{"level":"in fo","lvl":"error"}', false],
    ['time=2026-11-12T08:00:00Z level=info msg="call done"', true],
    ['level=INFO msg=x', true],
    ['ts=1 lvl="debug" caller=x.go:1', true],
    ['severity=info2 msg=x', false],
    ['time=x\vlevel=error level=info', false],
    ['time=2026Z npm error level=info', false],
    ['msg="a b" level=info', false],
    ['time=x  level=info', false],
    ['Time=x level=info', false],
    ['panic: level=info', false],
  ];
  for (const [line, info] of cases) {
    it(`${JSON.stringify(line.slice(0, 60))} ${info ? 'is' : 'is not'} read as info without decoding`, () => {
      const bytes = Buffer.from(line);
      assert.equal(structuredInfo(bytes, 0, bytes.length), info);
      // Only lines the decoded reading also calls info may be skipped.
      if (info) assert.equal(severityOf(line), 'info');
    });
  }

  it('knows the same info words as severity.ts', () => {
    assert.deepEqual([...INFO_VALUES].sort(), Object.entries(WORD_LEVELS).filter(([, l]) => l === 'info').map(([w]) => w).sort());
  });
});

// Each case twice: through the line kernel (WebAssembly, line-kernel.ts) and without it.
for (const mode of ['always', 'never'] as const) {
  describe(`the byte path reads a log as the stream does (line kernel: ${mode})`, () => {
    before(() => useLineKernel(mode));
    after(() => useLineKernel('auto'));

    it('a 6 MB Spring log across chunks, with CRLF, a BOM, secrets, invalid bytes and a last line without newline', () => {
      const abs = write('big.log', springLog(11, 36_000, { crlf: true, bom: true, tail: true }));
      assert.ok(fs.statSync(abs).size > 4.5 * 1024 * 1024, 'more than one 4 MiB chunk');
      const scan = bothWays(abs, { bytes: true, correlated: true });
      assert.equal(scan.total, fs.readFileSync(abs).toString('latin1').split('\n').length);
      assert.ok(scan.sites.length > 50 && scan.errors > 300, `${scan.sites.length} sites, ${scan.errors} errors`);
    });

    for (const seed of [1, 2, 3, 4, 5, 6]) {
      it(`seeded small log ${seed}`, () => {
        bothWays(write(`small-${seed}.log`, springLog(seed, 3000, { crlf: seed % 2 === 0, bom: seed === 3, tail: seed > 3 })), { bytes: true });
      });
    }

    for (const format of ['pino', 'slog', 'otel', 'logfmt'] as const) {
      it(`the ${format} fixture log`, () => {
        bothWays(write(`${format}.log`, log(format)), { bytes: true });
      });
    }

    it('the fixture logs with out-of-range numbers: epoch times no date holds, 400 digits, exponents', () => {
      const hostile = ['123456789012345678901234567890', '9'.repeat(400), '1e999', '-0', '0.0000001'];
      for (const format of ['pino', 'slog', 'otel', 'logfmt'] as const) {
        let k = 0;
        const text = log(format)
          .split('\n')
          .map((line, i) => (i % 3 === 0 ? line.replace(/\b\d+(?:\.\d+)?\b/g, () => hostile[k++ % hostile.length]) : line))
          .join('\n');
        const scan = bothWays(write(`hostile-${format}.log`, text), { bytes: true });
        assert.ok(scan.errors > 0, `${format}: errors still found`);
      }
    });

    it('the Python and Java fixture logs', () => {
      bothWays(write('python.log', pythonLog()), { bytes: true });
      bothWays(write('java.log', javaLog()), { bytes: true });
    });

    it('an empty file, one line, and a file of empty lines', () => {
      bothWays(write('empty.log', ''), { bytes: true });
      bothWays(write('one.log', '2026-11-12 ERROR boom'), { bytes: true });
      bothWays(write('blank.log', '\n\n\r\n\n'), { bytes: true });
    });

    it('JSON lines, logfmt and syslog: no leading column, every line decoded, the same result', () => {
      const rand = prng(9);
      const lines: string[] = [];
      for (let i = 0; i < 2000; i++) {
        const level = rand() < 0.05 ? 'error' : rand() < 0.1 ? 'warn' : 'info';
        const id = `req-${Math.floor(rand() * 300)}`;
        lines.push(
          i % 3 === 0
            ? JSON.stringify({ level, time: 1700000000000 + i, msg: level === 'info' ? 'handled' : 'upstream failed', trace_id: id })
            : i % 3 === 1
              ? `time=2026-11-12T08:00:${String(i % 60).padStart(2, '0')}Z level=${level} msg="call done" request_id=${id}`
              : `Nov 12 08:00:${String(i % 60).padStart(2, '0')} host sshd[${i}]: ${level === 'info' ? 'Accepted publickey' : 'Failed password'} for root`,
        );
      }
      // And the lines the structured rule must not take for info.
      lines.push('{"msg":"x","level":30}', '{"level":30,"msg":"see \\"level\\":\\"error\\""}', 'time=x\vlevel=error level=info', 'time=x level=info msg="level=error"', 'time=2026Z npm error level=info', '{"time":"t","lvl":"error","msg":"disk failed"}');
      bothWays(write('mixed.log', lines.join('\n') + '\n'), { bytes: true });
    });

    it('a leading INFO column is the line’s level on both paths, whatever marks follow it', () => {
      // The stream read these as errors (a CI or npm mark after a first word ending in Z) where the bytes read info.
      const odd = ['INFO:Z ##[error]x', 'INFO|Z npm ERR! x', '2026-11-12:INFO-Z ::error::x'];
      const text = ['2026-11-12 08:00:00 INFO start', ...odd, '2026-11-12 08:00:01 ERROR failed', '2026-11-12T08:00:02Z ##[error]a mark, no column'].join('\n');
      const scan = bothWays(write('marks.log', text), { bytes: true });
      assert.deepEqual([scan.total, scan.errors, scan.warnings], [6, 2, 0]);
    });

    it('gives way to the stream when a private key block is in the log (the redactor drops its lines)', () => {
      const key = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA' + 'x'.repeat(48), '-----END RSA PRIVATE KEY-----'];
      const text = ['2026-11-12 08:00:00 INFO start', ...key, '2026-11-12 08:00:01 ERROR failed after the key', '2026-11-12 08:00:02 INFO done'].join('\n');
      const scan = bothWays(write('key.log', text), { bytes: false });
      assert.equal(scan.total, 5, 'the key block keeps its first and last line as placeholders and loses the one between');
    });

    it('leaves correlated lines to the stream when it would watch too many ids at once', () => {
      const lines: string[] = [];
      const words = ['Ledger', 'Settlement', 'Refund', 'Payout', 'Invoice', 'Webhook', 'Mandate', 'Dispute', 'Transfer', 'Capture', 'Charge', 'Balance', 'Payment', 'Account'];
      for (let k = 0; k < 45; k++) for (const [g, word] of words.entries()) lines.push(`2026-11-12 08:00:00 ERROR [corr=id${g}x${k}abcdef] ${word} failure number ${k}`, `2026-11-12 08:00:00 INFO [corr=id${g}x${k}abcdef] ok`);
      const scan = bothWays(write('many-ids.log', lines.join('\n')), { bytes: true, correlated: false });
      assert.ok(scan.sites.length > 512, `${scan.sites.length} sites`);
    });

    it('a healthy log (no error, no warning) keeps its head and tail, read by line index', () => {
      const rand = prng(5);
      const lines = Array.from({ length: 40_000 }, (_, i) => `2026-11-12T08:00:${String(i % 60).padStart(2, '0')}.000Z  INFO 1 --- [exec-${i % 4}] c.a.p.Api : request ${i} served in ${Math.floor(rand() * 90)}ms`);
      const abs = write('healthy.log', lines.join('\n') + '\n');
      const scan = bothWays(abs, { bytes: true });
      assert.equal(scan.errors + scan.warnings, 0);
      const out = trimLog(redactedFileLines(abs), trimOptions(defaultPolicy(), counter, 1500, 'logs/healthy.log'));
      assert.match(out.text, /^2026-11-12T08:00:00\.000Z {2}INFO 1 --- \[exec-0\] c\.a\.p\.Api : request 0 served/);
      assert.match(out.text, /request 39999 served in \d+ms$/);
      assert.match(out.note, /^no error or warning found: head and tail kept, \d+ lines in between removed$/);
    });

    it('measures what a healthy file loses in bytes, also when it is streamed (a key block in it)', () => {
      const lines = ['2026-11-12 08:00:00 INFO café ☕ start', ...Array.from({ length: 300 }, (_, i) => `2026-11-12 08:00:01 INFO naïve line ${i} — ok`), '-----BEGIN PRIVATE KEY-----', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', '-----END PRIVATE KEY-----', '2026-11-12 08:00:02 INFO done'];
      const abs = write('healthy-key.log', lines.join('\r\n'));
      const options = trimOptions(defaultPolicy(), counter, 400, 'logs/healthy-key.log');
      const fast = redactedFileLines(abs);
      assert.equal(scanErrors(fast).file, undefined, 'the key block sends it to the stream');
      const out = trimLog(fast, options);
      const kept = out.text.split('\n').filter((l) => !l.startsWith('…'));
      const marker = /… (\d+) lines \(~(\d+) tokens\) removed …/.exec(out.text);
      assert.ok(marker, out.text);
      const keptBytes = kept.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
      assert.equal(Number(marker[2]), estimateTokensFromBytes(fs.statSync(abs).size - keptBytes, 'logs/healthy-key.log'));
    });

    it('finds an error’s correlated lines in the chunk before its own (read again from a checkpoint)', () => {
      const line = (i: number) => `2026-11-12T08:00:00.000Z  INFO 1 --- [exec-1] c.a.p.Api : request ${String(i).padStart(7, '0')} served`;
      const lines: string[] = [];
      let bytes = 0;
      const push = (l: string) => {
        lines.push(l);
        bytes += l.length + 1;
      };
      // Correlated lines 50 KB and 20 KB before the 4 MiB chunk boundary, their errors 30 KB after it.
      for (let i = 0; bytes < 4 * 1024 * 1024 + 30_000; i++) {
        if (bytes > 4 * 1024 * 1024 - 50_000 && !lines.some((l) => l.includes('corr=back00001'))) push('2026-11-12T08:00:00.000Z DEBUG 1 --- [exec-2] c.a.p.Api : [corr=back00001] POST /v1/payments');
        else if (bytes > 4 * 1024 * 1024 - 20_000 && !lines.some((l) => l.includes('corr=back00002'))) push('2026-11-12T08:00:00.000Z DEBUG 1 --- [exec-2] c.a.p.Api : [corr=back00002] POST /v1/refunds');
        else push(line(i));
      }
      push('2026-11-12T08:00:01.000Z ERROR 1 --- [exec-2] c.a.p.Api : [corr=back00001] payment rejected');
      push('2026-11-12T08:00:01.000Z ERROR 1 --- [exec-3] c.a.p.Api : [corr=back00002] refund rejected');
      const abs = write('back.log', lines.join('\n') + '\n');
      const scan = bothWays(abs, { bytes: true, correlated: true });
      const pool = gatherPool(redactedFileLines(abs), scan, 0, 0);
      const corr = [...pool.reasons].filter(([, rs]) => rs.some((r) => r.kind === 'corr')).map(([i]) => pool.lines.get(i));
      assert.deepEqual(corr.sort(), [lines.find((l) => l.includes('corr=back00001')), lines.find((l) => l.includes('corr=back00002'))].sort());
    });

    it('reads correlated lines only within CORR_RADIUS lines of their error', () => {
      const filler = (n: number) => Array.from({ length: n }, (_, i) => `2026-11-12 08:00:00 INFO tick ${i}`);
      const text = ['2026-11-12 08:00:00 DEBUG [corr=far0000001] request start', ...filler(CORR_RADIUS + 5), '2026-11-12 08:00:00 DEBUG [corr=far0000001] near line', '2026-11-12 08:00:01 ERROR [corr=far0000001] payment failed'].join('\n');
      const abs = write('radius.log', text);
      const scan = bothWays(abs, { bytes: true, correlated: true });
      const pool = gatherPool(redactedFileLines(abs), scan, 0, 0);
      const corr = [...pool.reasons].filter(([, rs]) => rs.some((r) => r.kind === 'corr')).map(([i]) => i);
      assert.deepEqual(corr, [CORR_RADIUS + 6], 'the near line, not the one beyond the radius');
    });
  });
}
