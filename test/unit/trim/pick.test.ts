import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { trimCommand } from '../../../src/core/trim/command';
import { clipLine } from '../../../src/core/trim/lines';
import { correlationId, errorSignature, isErrorLine, messageOf, timestampOf } from '../../../src/core/trim/log-parse';
import { pickTrimmer, sniffFormat } from '../../../src/core/trim/pick';
import { counter } from '../helpers';
import { jestRun, junitXml, lines, options, pytestRun, tapRun } from './fixtures';
import { log } from './log-fixtures';

describe('choosing a trimmer', () => {
  it('by content: test reports, JSON payloads and logs by their marks', () => {
    assert.equal(sniffFormat(lines(jestRun())), 'test');
    assert.equal(sniffFormat(lines(pytestRun())), 'test');
    assert.equal(sniffFormat(lines(tapRun())), 'test');
    assert.equal(sniffFormat(lines(junitXml())), 'test');
    assert.equal(sniffFormat(lines('{\n  "items": [1, 2]\n}')), 'json');
    assert.equal(sniffFormat(lines(log('slog'))), 'log');
    assert.equal(sniffFormat(lines(log('logfmt'))), 'log');
    assert.equal(sniffFormat(lines('{"id":1}\n{"id":2}\n')), 'json');
    assert.equal(sniffFormat(lines('compiling...\ndone in 3s\n')), undefined);
  });

  it('policy format first, then content, then the tool name, then the file name, else command output', () => {
    const plain = lines('step one\nstep two\n');
    assert.deepEqual(pick('out.txt', 'json', lines(jestRun())), ['json', 'policy']);
    assert.deepEqual(pick('out.txt', undefined, lines(jestRun()), 'shell'), ['test', 'content']);
    assert.deepEqual(pick('tool:run_tests', undefined, plain, 'run_tests'), ['test', 'tool']);
    assert.deepEqual(pick('tool:read_logs', undefined, plain, 'read_logs'), ['log', 'tool']);
    assert.deepEqual(pick('tool:shell', undefined, plain, 'shell'), ['command', 'tool']);
    assert.deepEqual(pick('build/output.log', undefined, plain), ['log', 'name']);
    assert.deepEqual(pick('reports/TEST-PaymentTest.xml', undefined, plain), ['test', 'name']);
    assert.deepEqual(pick('tool:x', undefined, plain, 'x'), ['command', 'default']);
  });
});

function pick(path: string, format: string | undefined, l: ReturnType<typeof lines>, tool?: string): [string, string] {
  const p = pickTrimmer(path, format, l, tool);
  return [p.format, p.how];
}

describe('reading log lines', () => {
  it('finds errors in every format, and only errors', () => {
    assert.equal(isErrorLine('2026-11-12T08:03:41.205Z ERROR 4821 --- [exec-3] c.a.Api : boom'), true);
    assert.equal(isErrorLine('2026-11-12T08:03:41.204Z  WARN 4821 --- [exec-3] c.a.Api : Errors: 0'), false);
    assert.equal(isErrorLine('{"level":50,"time":1731398621205,"msg":"boom"}'), true);
    assert.equal(isErrorLine('{"level":60,"time":1731398621205,"msg":"boom"}'), true);
    assert.equal(isErrorLine('{"level":30,"time":1731398621205,"msg":"error count 50"}'), false);
    assert.equal(isErrorLine('{"time":"2026-11-12T08:03:41Z","level":"ERROR","msg":"boom"}'), true);
    assert.equal(isErrorLine('{"Timestamp":"1731398621205000000","SeverityNumber":17,"Body":"boom"}'), true);
    assert.equal(isErrorLine('{"Timestamp":"1731398621205000000","SeverityNumber":9,"Body":"error handled"}'), false);
    assert.equal(isErrorLine('time=2026-11-12T08:03:41Z level=error msg="boom"'), true);
    assert.equal(isErrorLine('time=2026-11-12T08:03:41Z level=info msg="0 errors"'), false);
    assert.equal(isErrorLine('Traceback (most recent call last):'), true);
  });

  it('reads timestamps as written, epoch numbers as ISO 8601', () => {
    assert.equal(timestampOf('2026-11-12T08:03:41.205Z ERROR x'), '2026-11-12T08:03:41.205Z');
    assert.equal(timestampOf('{"level":50,"time":1731398621205}'), '2024-11-12T08:03:41.205Z');
    assert.equal(timestampOf('{"Timestamp":"1731398621205000000"}'), '2024-11-12T08:03:41.205Z');
    assert.equal(timestampOf('{"ts":1731398621.205}'), '2024-11-12T08:03:41.205Z');
    assert.equal(timestampOf('no time here'), undefined);
  });

  it('keeps an epoch number no Date can hold as written, at the edge of the range too', () => {
    assert.equal(timestampOf('{"level":50,"time":123456789012345678901234567890}'), '123456789012345678901234567890');
    // 18 digits and more are nanoseconds: 8.64e21 ns is the last millisecond a Date holds.
    assert.equal(timestampOf('{"level":50,"time":8640000000000001000000}'), '8640000000000001000000');
    assert.equal(timestampOf('{"level":50,"time":8640000000000000000000}'), '+275760-09-13T00:00:00.000Z');
    assert.equal(timestampOf('{"level":50,"time":-8640000000000000000000}'), undefined);
    assert.equal(timestampOf('ts=99999999999999999999 level=error msg=x'), '5138-11-16T09:46:40.000Z');
  });

  it('reads correlation and trace ids, and the message with the error detail', () => {
    assert.equal(correlationId('… [corr=2c81d0f4-6a3e-4b17-8e52-91f0c4a7d3b6] 400'), '2c81d0f4-6a3e-4b17-8e52-91f0c4a7d3b6');
    assert.equal(correlationId('{"TraceId":"5b8efff798038103d269b633813fc60c"}'), '5b8efff798038103d269b633813fc60c');
    assert.equal(correlationId('{"reqId":"req-4bf92f3577b3"}'), 'req-4bf92f3577b3');
    assert.equal(correlationId('level=error trace_id=4bf92f3577b34da6 msg=x'), '4bf92f3577b34da6');
    assert.equal(messageOf('{"level":50,"msg":"payment rejected","err":{"type":"Error","message":"paymentMethod is required"}}'), 'payment rejected: paymentMethod is required');
    assert.equal(messageOf('time=x level=error msg="payment rejected" err="timeout after 3000ms"'), 'payment rejected: timeout after 3000ms');
    assert.equal(
      errorSignature('2026-11-12T08:17:09.882Z ERROR 4821 --- [exec-9] c.a.p.api.ApiExceptionHandler : [corr=9e4b7a12-0c5d-4f83-b6e1-3a72d8c50f19] 400 BAD_REQUEST POST /v1/payments: paymentMethod is required'),
      errorSignature('2026-11-12T08:03:41.205Z ERROR 4821 --- [exec-3] c.a.p.api.ApiExceptionHandler : [corr=2c81d0f4-6a3e-4b17-8e52-91f0c4a7d3b6] 400 BAD_REQUEST POST /v1/payments: paymentMethod is required'),
    );
  });

  it('clips a long line in the middle, keeping its start and its end, with the count of characters clipped', () => {
    const line = `${'a'.repeat(250)}${'b'.repeat(250)}`;
    assert.equal(clipLine(line, 300), `${'a'.repeat(200)} …[200 chars clipped]… ${'b'.repeat(100)}`);
    assert.equal(clipLine('short', 300), 'short');
  });

  it('never cuts inside an IP address, a path or an id: each cut moves to a token boundary, whatever the width', () => {
    const tokens = ['peer', '10.250.117.203:49152', 'blk_-1608999687919862906', '/var/lib/hadoop/dfs/data/current/BP-1234', 'R02-M1-N0-C:J12-U11', 'ok'];
    const line = Array.from({ length: 40 }, (_, i) => tokens[i % tokens.length]).join(' ');
    for (let max = 60; max <= 400; max += 7) {
      const clipped = clipLine(line, max);
      const parts = clipped.split(/ …\[\d+ chars clipped\]… /);
      assert.equal(parts.length, 2, `one marker at width ${max}`);
      for (const piece of parts.flatMap((p) => p.split(' ')).filter(Boolean)) assert.ok(tokens.includes(piece), `width ${max}: "${piece}" is a whole token`);
    }
  });
});

describe('command output', () => {
  it('keeps the head and the tail with a marker of the lines and tokens removed', () => {
    const text = Array.from({ length: 500 }, (_, i) => `[${i + 1}/500] Compiling module_${i}.ts`).join('\n');
    const out = trimCommand(lines(text), options(2000, { headLines: 3, tailLines: 2 }));
    const middle = text.split('\n').slice(3, 498).join('\n');
    assert.equal(out.text, ['[1/500] Compiling module_0.ts', '[2/500] Compiling module_1.ts', '[3/500] Compiling module_2.ts', `… 495 lines (~${Math.ceil((middle.length + 1) / 3.6)} tokens) removed …`, '[499/500] Compiling module_498.ts', '[500/500] Compiling module_499.ts'].join('\n'));
    assert.equal(out.originalLines, 500);
    assert.equal(out.retainedLines, 5);
    assert.equal(out.note, 'head and tail kept, 495 lines in between removed');
  });

  it('halves the head and the tail until the budget holds', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i + 1}: ${'lorem ipsum dolor sit amet '.repeat(3)}`).join('\n');
    const out = trimCommand(lines(text), options(300, { headLines: 40, tailLines: 40 }));
    assert.ok(counter.count(out.text) <= 300);
    assert.equal(out.text.split('\n')[0], text.split('\n')[0]);
    assert.equal(out.text.split('\n').at(-1), text.split('\n').at(-1));
    assert.ok(out.retainedLines < 40);
  });
});
