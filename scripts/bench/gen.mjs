// Deterministic data for the bench, generated under /tmp and reused between runs (a `.done` marker per item).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mulberry32 } from '../prng.mjs';

/** Run `make(dir)` unless `dir/.done` says it was made with the same recipe. */
export function once(dir, recipe, make) {
  const marker = path.join(dir, '.done');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === recipe) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  make(dir);
  fs.writeFileSync(marker, recipe);
  return dir;
}

const ERRORS = [
  '400 BAD_REQUEST POST /v1/payments: paymentMethod is required',
  'Ledger call failed: Read timed out after 3000ms',
  'Settlement export failed for batch: SFTP upload timed out',
];

/** A Spring-style log of `bytes` bytes: noise, correlated requests, a few errors with long stack traces. */
export function writeLog(file, bytes, seed = 0x50_4d_42) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const rand = mulberry32(seed);
  const hex = (n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rand() * 16)];
    return s;
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const fd = fs.openSync(file, 'w');
  let t = Date.parse('2026-11-12T00:00:00.000Z');
  let written = 0;
  let n = 0;
  let chunk = [];
  while (written < bytes) {
    t += Math.floor(rand() * 40);
    const ts = new Date(t).toISOString();
    const corr = uuid();
    if (n % 9000 === 4500) {
      chunk.push(`${ts} DEBUG 4821 --- [exec-${n % 20}] c.a.p.web.RequestLoggingFilter : [corr=${corr}] POST /v1/payments client=pos-legacy/4.2.1`);
      chunk.push(`${ts} ERROR 4821 --- [exec-${n % 20}] c.a.p.api.ApiExceptionHandler : [corr=${corr}] ${ERRORS[Math.floor(rand() * ERRORS.length)]}`);
      chunk.push('org.springframework.web.client.ResourceAccessException: I/O error on POST request: ' + 'x'.repeat(400));
      for (let f = 0; f < 40; f++) chunk.push(`\tat com.acme.payments.layer${f}.Handler.call(Handler.java:${100 + f})`);
    } else if (n % 700 === 350) {
      chunk.push(`${ts}  WARN 4821 --- [exec-${n % 20}] c.a.p.client.LedgerClient : [corr=${corr}] Ledger slow: ${Math.floor(rand() * 3000)} ms, retrying`);
    } else {
      chunk.push(`${ts}  INFO 4821 --- [exec-${n % 20}] c.a.p.api.PaymentController : [corr=${corr}] Payment created id=pay_${hex(20)} amount=${(rand() * 500).toFixed(2)} EUR`);
    }
    n++;
    if (chunk.length >= 4000) {
      const text = chunk.join('\n') + '\n';
      fs.writeSync(fd, text);
      written += Buffer.byteLength(text);
      chunk = [];
    }
  }
  fs.closeSync(fd);
  return fs.statSync(file).size;
}

/** A workspace holding one big log and a task, for the preview figures. */
export function logWorkspace(base, mib) {
  const dir = path.join(base, `log-${mib}`);
  return once(dir, `log v1 ${mib}`, (d) => {
    writeLog(path.join(d, 'logs', 'app.log'), mib * 1024 * 1024);
    fs.writeFileSync(path.join(d, 'task.md'), 'Why are legacy POS payments rejected?\n');
    // Older builds skip a log over max_file_bytes (64 MiB): raised so that every build trims it.
    fs.mkdirSync(path.join(d, '.context'));
    fs.writeFileSync(path.join(d, '.context', 'policy.yaml'), 'max_file_bytes: 4294967296\n');
  });
}

const WORDS = 'payment ledger settlement retry timeout gateway invoice refund merchant terminal batch export queue worker lock redis cache token session audit tenant schema migration index replica shard quorum backoff circuit breaker idempotency webhook'.split(' ');

/**
 * A workspace of 60 Markdown documents (about 1 600 tokens each) and a 5 MB log, with a policy whose window holds
 * about 100k tokens: the re-assembly figure edits one document and assembles again.
 */
export function largeWorkspace(base) {
  const dir = path.join(base, 'ws-100k');
  return once(dir, 'ws100k v1', (d) => {
    const rand = mulberry32(0xdec0de);
    const word = () => WORDS[Math.floor(rand() * WORDS.length)];
    fs.mkdirSync(path.join(d, 'docs'), { recursive: true });
    fs.mkdirSync(path.join(d, '.context'), { recursive: true });
    for (let i = 0; i < 60; i++) {
      const paras = [];
      for (let p = 0; p < 12; p++) paras.push(Array.from({ length: 95 }, word).join(' ') + '.');
      fs.writeFileSync(path.join(d, 'docs', `note-${String(i).padStart(2, '0')}.md`), `---\ntitle: Note ${i} on ${word()} and ${word()}\n---\n# Note ${i}\n\n${paras.join('\n\n')}\n`);
    }
    writeLog(path.join(d, 'logs', 'app.log'), 5 * 1024 * 1024, 7);
    fs.writeFileSync(path.join(d, 'AGENTS.md'), '# Rules\n\n- Keep payments idempotent.\n');
    fs.writeFileSync(path.join(d, 'task.md'), 'Why does the ledger retry time out during settlement export?\n');
    fs.writeFileSync(path.join(d, '.context', 'policy.yaml'), 'envelope: { window: 128000, output_reserve: 8000, margin: 2000 }\nzones:\n  tool_results: { max_tokens: 4000 }\n');
  });
}

/** `count` small files in nested folders (100 per folder), for the scan scaling series. */
export function fileTree(base, count) {
  const dir = path.join(base, `tree-${count}`);
  return once(dir, `tree v1 ${count}`, (d) => {
    for (let i = 0; i < count; i++) {
      const folder = path.join(d, `pkg${Math.floor(i / 10000)}`, `mod${Math.floor(i / 100) % 100}`);
      if (i % 100 === 0) fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `file${i}.ts`), `export const v${i} = ${i};\n`);
    }
  });
}

const TOPICS = ['payment', 'retry', 'timeout', 'gateway', 'checkout', 'ledger', 'refund', 'invoice', 'settlement', 'webhook'];

/**
 * A workspace of `count` files for the preview scaling rows: Markdown notes that share the task's words
 * (the index's worst case: every one is a candidate), one decision record, AGENTS.md and a task, 100 files per
 * folder. About 300 bytes a note.
 */
export function notesWorkspace(base, count) {
  const dir = path.join(base, `notes-${count}`);
  return once(dir, `notes v1 ${count}`, (d) => {
    for (let i = 0; i < count; i++) {
      const folder = path.join(d, 'notes', `d${Math.floor(i / 100)}`);
      if (i % 100 === 0) fs.mkdirSync(folder, { recursive: true });
      const a = TOPICS[i % TOPICS.length];
      const b = TOPICS[(i * 7 + 3) % TOPICS.length];
      const c = WORDS[(i * 13) % WORDS.length];
      fs.writeFileSync(path.join(folder, `note-${i}.md`), `# Note ${i}: ${a} and ${b}\n\nMeeting note ${i} about the ${a} service and the ${b} flow, with ${c} on the side. The payment gateway retry timeout came up; nothing was decided. Owner: team-${i % 37}.\n`);
    }
    fs.mkdirSync(path.join(d, 'docs', 'adr'), { recursive: true });
    fs.writeFileSync(path.join(d, 'docs', 'adr', '0007-payment-gateway-retry-budget.md'), '# ADR-0007: Payment gateway retry budget\n\n## Status\n\nAccepted\n\n## Decision\n\nRetries to the payment gateway are capped at 3 with exponential backoff; the gateway timeout is 2 seconds.\n');
    fs.writeFileSync(path.join(d, 'AGENTS.md'), '# Rules\n\n- Keep payments idempotent.\n');
    fs.writeFileSync(path.join(d, 'task.md'), 'Why does the payment gateway retry keep timing out?\n');
  });
}

/**
 * A workspace of `docs` Markdown documents (about 1 600 tokens each) and a 5 MB log under a window of `window`
 * tokens, every document loaded (load_threshold 0), for the re-assembly row at 500k tokens sent.
 */
export function sizedWorkspace(base, docs, window) {
  const dir = path.join(base, `ws-${docs}-${window}`);
  return once(dir, `ws v2 ${docs} ${window}`, (d) => {
    const rand = mulberry32(0xdec0de);
    const word = () => WORDS[Math.floor(rand() * WORDS.length)];
    fs.mkdirSync(path.join(d, 'docs'), { recursive: true });
    fs.mkdirSync(path.join(d, '.context'), { recursive: true });
    for (let i = 0; i < docs; i++) {
      const paras = [];
      for (let p = 0; p < 12; p++) paras.push(Array.from({ length: 95 }, word).join(' ') + '.');
      fs.writeFileSync(path.join(d, 'docs', `note-${String(i).padStart(3, '0')}.md`), `---\ntitle: Note ${i} on ${word()} and ${word()}\n---\n# Note ${i}\n\n${paras.join('\n\n')}\n`);
    }
    writeLog(path.join(d, 'logs', 'app.log'), 5 * 1024 * 1024, 7);
    fs.writeFileSync(path.join(d, 'AGENTS.md'), '# Rules\n\n- Keep payments idempotent.\n');
    fs.writeFileSync(path.join(d, 'task.md'), 'Why does the ledger retry time out during settlement export?\n');
    fs.writeFileSync(path.join(d, '.context', 'policy.yaml'), `envelope: { window: ${window}, output_reserve: 8000, margin: 2000 }\nzones:\n  tool_results: { max_tokens: 4000 }\n  documents: { max_tokens: ${window} }\nrelevance: { load_threshold: 0 }\n`);
  });
}
