import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { fileLines } from '../../../src/core/sources/scan';
import { trimLog } from '../../../src/core/trim/log';
import { counter, EXAMPLE } from '../helpers';
import { lines, options } from './fixtures';
import { INCIDENT_TRACES, javaLog, LEDGER_TRACE, log, pythonLog, type LogFormat } from './log-fixtures';

const APP_LOG = path.join(EXAMPLE, 'application.log');

describe('log trimming: the example application.log', () => {
  const raw = fs.readFileSync(APP_LOG, 'utf8');
  const out = trimLog(() => fileLines(APP_LOG), options(1500));
  const errorLines = raw.split('\n').filter((l) => / ERROR /.test(l));

  it('goes from its full size to at most 1 500 tokens, and says how many lines it kept', () => {
    assert.equal(errorLines.length, 11);
    assert.equal(Buffer.byteLength(raw), 975917);
    assert.ok(counter.count(out.text) <= 1500, `kept ${counter.count(out.text)} tokens`);
    assert.equal(out.originalLines, 5543);
    assert.equal(out.format, 'log');
    assert.equal(out.note, 'kept 3 of 3 error templates and 8 of 8 warning templates (11 lines; first occurrence of 3 error templates verbatim) from 11 error and 34 warning lines');
    assert.equal(out.retainedLines, 11);
  });

  it('keeps every distinct error, each first occurrence whole with its timestamp and correlation id', () => {
    for (const marker of ['paymentMethod is required', 'Settlement export failed for batch', 'Fraud scoring call failed']) {
      const first = errorLines.find((l) => l.includes(marker));
      assert.ok(first && out.text.split('\n').includes(first), `first "${marker}" error kept verbatim`);
    }
  });

  it('keeps the first paymentMethod error with its correlated DEBUG request line and WARN line', () => {
    const corr = '2c81d0f4-6a3e-4b17-8e52-91f0c4a7d3b6';
    const related = raw.split('\n').filter((l) => l.includes(corr));
    const debug = related.find((l) => l.includes(' DEBUG ') && l.includes('client=pos-legacy/4.2.1'));
    const warn = related.find((l) => l.includes(' WARN '));
    const kept = out.text.split('\n');
    assert.ok(debug && kept.includes(debug), 'DEBUG request line kept whole');
    assert.ok(warn && kept.includes(warn), 'WARN line kept whole');
    assert.ok(kept.indexOf(debug!) < kept.indexOf(warn!), 'in file order');
  });

  it('lists every error and warning template first, errors in order of first appearance, with count, first and last time', () => {
    const kept = out.text.split('\n');
    assert.deepEqual(kept.slice(0, 5), [
      'Errors (E) and warnings (W) by template, most important first: count, first and last time, first message:',
      '  E ×8 (first 2026-11-12T08:03:41.205Z, last 2026-11-12T09:41:15.991Z): 400 BAD_REQUEST POST /v1/payments: paymentMethod is required',
      '  E ×1 (at 2026-11-12T08:30:38.437Z): Settlement export failed for batch 2026-11-11: SFTP upload to sftp.settlement.bank-partner.example:22 timed out after 30000ms; will retry at 08:35:00Z',
      '  E ×2 (first 2026-11-12T08:44:27.537Z, last 2026-11-12T09:33:10.861Z): Fraud scoring call failed (attempt 1/3): I/O error on POST request for "http://fraud-scoring.risk.svc.cluster.local:8080/v2/score": Connection reset',
      '  W ×1 (at 2026-11-12T09:02:31.640Z): HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta=1m3s122ms).',
    ]);
    assert.ok(kept.includes('  W ×8 (first 2026-11-12T08:03:41.204Z, last 2026-11-12T09:41:15.990Z): Validation failed for PaymentRequest: paymentMethod is required'));
    assert.equal(kept.filter((l) => /^ {2}[EW] ×/.test(l)).length, 11);
  });

  it('clips the 730-character exception line with a visible marker instead of dropping evidence for it', () => {
    const clipped = out.text.split('\n').find((l) => l.startsWith('org.springframework.web.bind.MethodArgumentNotValidException'));
    assert.ok(clipped, 'the exception line is there');
    assert.match(clipped!, /PaymentResponse> {2}…\[450 chars clipped\]… \]; arguments \[\]/, 'cut at token boundaries, not inside an id');
    assert.ok(clipped!.endsWith('default message [paymentMethod is required]] '));
    const original = raw.split('\n').find((l) => l.startsWith('org.springframework.web.bind.MethodArgumentNotValidException'))!;
    assert.equal(clipped!.length, original.length - 450 + ' …[450 chars clipped]… '.length);
  });

  it('drops the noise: health checks and successful payments are not kept', () => {
    assert.doesNotMatch(out.text, /actuator\/health/);
    assert.doesNotMatch(out.text, /Completed 201 CREATED/);
  });
});

describe('log trimming: JSON lines and logfmt', () => {
  const cases: [LogFormat, RegExp][] = [
    ['pino', /"level":20,.*"msg":"POST \/v1\/payments client=pos-legacy\/4\.2\.1 terminal=T-0410"/],
    ['slog', /"level":"DEBUG","msg":"POST \/v1\/payments client=pos-legacy\/4\.2\.1 terminal=T-0410","trace_id":"4bf92f3577b34da6a3ce929d0e0e4736"/],
    ['otel', /"SeverityText":"DEBUG".*"Body":"POST \/v1\/payments client=pos-legacy\/4\.2\.1 terminal=T-0410".*"TraceId":"4bf92f3577b34da6a3ce929d0e0e4736"/],
    ['logfmt', /^time=\S+ level=debug msg="POST \/v1\/payments client=pos-legacy\/4\.2\.1 terminal=T-0410" trace_id=4bf92f3577b34da6a3ce929d0e0e4736$/],
  ];
  for (const [format, firstDebug] of cases) {
    it(`${format}: keeps the errors with their trace ids, the first one's correlated lines, and collapses the repeats`, () => {
      const text = log(format);
      const out = trimLog(lines(text), options(900));
      const kept = out.text.split('\n');
      assert.ok(counter.count(out.text) <= 900);
      assert.equal(out.originalLines, 416);
      assert.match(out.note, /^kept 2 of 2 error templates and 1 of 1 warning templates \(\d+ lines; first occurrence of 2 error templates verbatim\) from 6 error and 5 warning lines$/);
      assert.ok(kept.some((l) => firstDebug.test(l)), 'the first incident DEBUG line');
      assert.ok(kept.some((l) => /validation failed for PaymentRequest/.test(l)), 'the first incident WARN line');
      const trace = (id: string) => (format === 'pino' ? `req-${id.slice(0, 12)}` : id);
      for (const id of INCIDENT_TRACES) assert.ok(out.text.includes(trace(id)), `occurrence ${id} kept`);
      assert.ok(out.text.includes(trace(LEDGER_TRACE)), 'the distinct ledger error kept');
      assert.ok(kept.includes(`  E ×5 (first ${new Date(times(format, text)[0]).toISOString()}, last ${new Date(times(format, text)[4]).toISOString()}): payment rejected with 400 BAD_REQUEST: paymentMethod is required`));
      assert.equal(text.split('\n').filter((l) => /actuator\/health|Payment created/.test(l)).length, 400);
      assert.ok(kept.filter((l) => /actuator\/health|Payment created/.test(l)).length <= 12, 'noise dropped');
    });
  }
});

/** The epoch milliseconds of the five incident errors, read back from the generated text. */
function times(format: LogFormat, text: string): number[] {
  return text
    .split('\n')
    .filter((l) => l.includes('payment rejected'))
    .map((l) => {
      if (format === 'pino') return Number(/"time":(\d+)/.exec(l)![1]);
      if (format === 'otel') return Math.round(Number(/"Timestamp":"(\d+)"/.exec(l)![1]) / 1e6);
      return Date.parse(/(?:"time":"|time=)([^"\s]+)/.exec(l)![1]);
    });
}

describe('log trimming: a line the reader cannot parse whole', () => {
  it('a pino line whose time no Date can hold is kept with its time as written, and the scan goes on', () => {
    const text = ['{"level":30,"time":1733044800000,"msg":"start"}', '{"level":50,"time":123456789012345678901234567890,"msg":"ledger failed: timeout"}', '{"level":50,"time":1733044800100,"msg":"ledger failed: timeout"}'].join('\n');
    const out = trimLog(lines(text), options(300));
    assert.match(out.note, /^kept 1 of 1 error templates/);
    assert.ok(out.text.includes('"time":123456789012345678901234567890'), out.text);
    assert.ok(out.text.includes('(first 123456789012345678901234567890, last 2024-12-01T09:20:00.100Z)'), out.text);
  });
});

describe('log trimming: stack traces and streaming', () => {
  it('keeps a Python traceback up to the cap, then its closing exception line past the cap', () => {
    const out = trimLog(lines(pythonLog()), options(600));
    const kept = out.text.split('\n');
    const at = kept.indexOf('2026-11-12 08:01:00,205 ERROR [payments.api] request_id=req-7f3a9c2e payment rejected');
    assert.ok(at >= 0);
    assert.equal(kept[at + 1], 'Traceback (most recent call last):');
    assert.equal(kept[at + 11], '    return next_layer4(request)');
    assert.equal(kept[at + 12], '  File "/app/payments/layer5.py", line 15, in handle5');
    assert.equal(kept[at + 13], '… 7 lines omitted');
    assert.equal(kept[at + 14], 'ValueError: paymentMethod is required');
  });

  it('keeps a Java stack whole up to the cap and its "Caused by:" root cause past it', () => {
    const out = trimLog(lines(javaLog()), options(600));
    assert.ok(out.text.includes('\tat com.acme.payments.layer10.Handler.call(Handler.java:110)'));
    assert.ok(!out.text.includes('layer11.Handler'));
    assert.ok(out.text.split('\n').includes('Caused by: java.net.SocketTimeoutException: Read timed out'));
  });

  it('reads its input in exactly two streaming passes, whatever the size', () => {
    let passes = 0;
    const generated = () => {
      passes++;
      return (function* () {
        for (let i = 0; i < 200000; i++) {
          if (i === 150000) yield `2026-11-12T09:00:00.000Z ERROR 1 --- [w] c.a.Job : [corr=job-123456] export failed`;
          else yield `2026-11-12T09:00:00.000Z  INFO 1 --- [w] c.a.Job : [corr=row-${i}] processed row ${i}`;
        }
      })();
    };
    const out = trimLog(generated, options(300));
    assert.equal(passes, 2);
    assert.equal(out.originalLines, 200000);
    assert.ok(out.text.includes('[corr=job-123456] export failed'));
    assert.ok(out.text.includes('… 149998 lines omitted'));
  });

  it('with no error at all, keeps the head and the tail and says so', () => {
    const text = Array.from({ length: 100 }, (_, i) => `2026-11-12T09:00:${String(i % 60).padStart(2, '0')}.000Z INFO tick ${i}`).join('\n');
    const out = trimLog(lines(text), options(400, { headLines: 2, tailLines: 2 }));
    assert.equal(out.text.split('\n').length, 5);
    assert.match(out.text.split('\n')[2], /^… 96 lines \(~\d+ tokens\) removed …$/);
    assert.match(out.note, /^no error or warning found: head and tail kept/);
  });
});
