/**
 * Generated service logs in the formats the log trimmer reads: pino (numeric levels), slog JSON (string levels),
 * OpenTelemetry JSON (severity), logfmt, and Python logging with a traceback. Same story in each: noise, five
 * legacy requests rejected with "paymentMethod is required" (each with a DEBUG and a WARN line sharing its trace
 * id), and one ledger timeout.
 */
import { prng } from './fixtures';

export type LogFormat = 'pino' | 'slog' | 'otel' | 'logfmt';

interface Event {
  t: number;
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  trace: string;
  err?: string;
}

export const START = Date.parse('2026-11-12T08:00:00.000Z');
export const INCIDENT_TRACES = ['4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7a3ce929d0e0e4737', '5b8efff798038103d269b633813fc60c', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', '0af7651916cd43dd8448eb211c80319c'];
export const LEDGER_TRACE = '9c5b94b1d8a2e7f04c3a1e6b2d9f8a07';

export function events(seed = 7, noise = 400): Event[] {
  const rand = prng(seed);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
  const out: Event[] = [];
  let t = START;
  const incidentAt = new Set([60, 140, 220, 300, 380]);
  for (let i = 0; i < noise; i++) {
    t += 200 + Math.floor(rand() * 800);
    const trace = hex(32);
    out.push({ t, level: rand() < 0.5 ? 'debug' : 'info', msg: rand() < 0.5 ? 'GET /actuator/health 200 in 2ms' : `Payment created id=pay_${hex(12)} amount=${(rand() * 100).toFixed(2)} EUR method=card`, trace });
    if (incidentAt.has(i)) {
      const k = [...incidentAt].indexOf(i);
      const tr = INCIDENT_TRACES[k];
      out.push({ t: t + 1, level: 'debug', msg: `POST /v1/payments client=pos-legacy/4.2.1 terminal=T-04${10 + k}`, trace: tr });
      out.push({ t: t + 2, level: 'warn', msg: 'validation failed for PaymentRequest: paymentMethod is required', trace: tr });
      out.push({ t: t + 3, level: 'error', msg: 'payment rejected with 400 BAD_REQUEST', err: 'paymentMethod is required', trace: tr });
    }
    if (i === 250) out.push({ t: t + 5, level: 'error', msg: 'ledger call failed', err: 'timeout after 3000ms', trace: LEDGER_TRACE });
  }
  return out;
}

const PINO: Record<Event['level'], number> = { debug: 20, info: 30, warn: 40, error: 50 };
const OTEL: Record<Event['level'], number> = { debug: 5, info: 9, warn: 13, error: 17 };

export function render(e: Event, format: LogFormat): string {
  const iso = new Date(e.t).toISOString();
  switch (format) {
    case 'pino':
      return JSON.stringify({ level: PINO[e.level], time: e.t, pid: 4821, hostname: 'payments-7c9', reqId: `req-${e.trace.slice(0, 12)}`, msg: e.msg, ...(e.err ? { err: { type: 'Error', message: e.err, stack: `Error: ${e.err}\n    at PaymentController.create (/app/src/api/payments.js:58:13)` } } : {}) });
    case 'slog':
      return JSON.stringify({ time: iso, level: e.level.toUpperCase(), msg: e.msg, trace_id: e.trace, ...(e.err ? { error: e.err } : {}) });
    case 'otel':
      return JSON.stringify({ Timestamp: `${e.t}000000`, SeverityText: e.level.toUpperCase(), SeverityNumber: OTEL[e.level], Body: e.msg, TraceId: e.trace, Attributes: { 'service.name': 'payments', ...(e.err ? { 'exception.message': e.err } : {}) } });
    case 'logfmt':
      return `time=${iso} level=${e.level} msg="${e.msg}" trace_id=${e.trace}${e.err ? ` err="${e.err}"` : ''}`;
  }
}

export function log(format: LogFormat, seed = 7): string {
  return events(seed).map((e) => render(e, format)).join('\n') + '\n';
}

/** Python logging: an ERROR line followed by a traceback longer than the stack cap, ending with the exception. */
export function pythonLog(): string {
  const out: string[] = [];
  for (let i = 0; i < 60; i++) out.push(`2026-11-12 08:00:${String(i).padStart(2, '0')},100 INFO [payments.api] request_id=req-${1000 + i} GET /health 200`);
  out.push('2026-11-12 08:01:00,205 ERROR [payments.api] request_id=req-7f3a9c2e payment rejected');
  out.push('Traceback (most recent call last):');
  for (let f = 0; f < 9; f++) out.push(`  File "/app/payments/layer${f}.py", line ${10 + f}, in handle${f}`, `    return next_layer${f}(request)`);
  out.push('ValueError: paymentMethod is required');
  for (let i = 0; i < 40; i++) out.push(`2026-11-12 08:02:${String(i).padStart(2, '0')},300 INFO [payments.api] request_id=req-${2000 + i} GET /health 200`);
  return out.join('\n') + '\n';
}

/** A Java error whose stack runs past the cap, with its root cause at the end. */
export function javaLog(): string {
  const out: string[] = [];
  for (let i = 0; i < 30; i++) out.push(`2026-11-12T08:00:${String(i).padStart(2, '0')}.100Z  INFO 4821 --- [main] c.a.p.Boot : [corr=boot-${1000 + i}] warming cache ${i}`);
  out.push('2026-11-12T08:01:00.205Z ERROR 4821 --- [exec-3] c.a.p.ledger.LedgerClient : [corr=77aa11bb-cc22] ledger call failed');
  out.push('org.springframework.web.client.ResourceAccessException: I/O error on POST request for "http://ledger/v1/entries"');
  for (let f = 0; f < 20; f++) out.push(`\tat com.acme.payments.layer${f}.Handler.call(Handler.java:${100 + f})`);
  out.push('Caused by: java.net.SocketTimeoutException: Read timed out');
  out.push('\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:278)');
  out.push('\t... 20 more');
  for (let i = 0; i < 30; i++) out.push(`2026-11-12T08:02:${String(i).padStart(2, '0')}.100Z  INFO 4821 --- [main] c.a.p.Boot : [corr=boot-${2000 + i}] warming cache ${i}`);
  return out.join('\n') + '\n';
}
