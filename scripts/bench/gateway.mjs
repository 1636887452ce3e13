// Added latency of `ctxctl gateway` on 127.0.0.1: streaming calls with a ~100 KB body, one at a time (as one agent
// calls) and N at once, straight to a fake upstream and through the gateway (its own process, dist/cli.js, observe
// then control): p50/p99 of the time to the last byte, and the gateway's memory. Needs `npx tsc -p .` and the build.
// Usage: node scripts/bench/gateway.mjs [--calls 50] [--rounds 5] [--kb 100] [--json]  (--json: the rows, for npm run bench)
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const { startFakeUpstream } = require(path.join(root, 'out', 'test', 'unit', 'gateway', 'fake-upstream.js'));
const { values } = parseArgs({ options: { calls: { type: 'string', default: '50' }, rounds: { type: 'string', default: '5' }, kb: { type: 'string', default: '100' }, json: { type: 'boolean', default: false } } });
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);

function body(kb, i) {
  const line = 'INFO request handled in 12 ms status=200 path=/api/cart/1234 user=42\n';
  const text = line.repeat(Math.ceil((kb * 1024) / line.length));
  return JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: `call ${i}` }] }, { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: text.slice(0, 3000) }, { type: 'text', text }] }] });
}

function call(url, payload) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    let first;
    let events = 0;
    const req = http.request(url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'bench' }, agent: false }, (res) => {
      res.on('data', (c) => {
        first ??= process.hrtime.bigint();
        events += (c.toString('utf8').match(/\n\n/g) ?? []).length;
      });
      res.on('end', () => resolve({ ttfb: Number(first - t0) / 1e6, total: Number(process.hrtime.bigint() - t0) / 1e6, events }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function run(url, label) {
  const payloads = Array.from({ length: CALLS }, (_, i) => body(Number(values.kb), i));
  await Promise.all(payloads.slice(0, 5).map((p) => call(url, p))); // warm up
  const one = [];
  for (const p of payloads) one.push((await call(url, p)).total);
  const totals = [];
  let events = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const got = await Promise.all(payloads.map((p) => call(url, p)));
    for (const g of got) {
      totals.push(g.total);
      events += g.events;
    }
  }
  return { label, seq50: pct(one, 50), seq99: pct(one, 99), p50: pct(totals, 50), p99: pct(totals, 99), events };
}

function gateway(mode, ws, upstreamUrl, inThread = false) {
  // The CLI (records in a worker thread), or the compiled gateway with its records written in its own thread when idle.
  const inline = `require(${JSON.stringify(path.join(root, 'out', 'src', 'host', 'disk.js'))}).installDiskHost(); require(${JSON.stringify(path.join(root, 'out', 'src', 'cli', 'gateway.js'))}).startGateway({ root: ${JSON.stringify(ws)}, port: 0, mode: '${mode}', anthropicUpstream: '${upstreamUrl}', openaiUpstream: '${upstreamUrl}', agentDirs: [], log: () => {}, recordInThread: false }).then((g) => console.log('gateway listening on ' + g.url))`;
  const args = inThread ? ['-e', inline] : [path.join(root, 'dist', 'cli.js'), 'gateway', '--workspace', ws, '--port', '0', '--mode', mode, '--anthropic-upstream', upstreamUrl];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
    child.once('exit', (code) => reject(new Error(`gateway exited ${code}`)));
  });
}

function rssMb(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch {
    return undefined;
  }
}

const upstream = await startFakeUpstream();
const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-bench-gw-'));
const rows = [await run(upstream.url, 'direct')];
for (const [mode, inThread] of [['observe', false], ['control', false], ['observe', true], ['control', true]]) {
  const g = await gateway(mode, ws, upstream.url, inThread);
  rows.push(await run(g.url, `${mode}${inThread ? ' (in-thread records)' : ''}`));
  rows.at(-1).rssMb = rssMb(g.child.pid);
  await new Promise((r) => setTimeout(r, 3000)); // let it write its records
  rows.at(-1).records = fs.readdirSync(path.join(ws, '.context', 'gateway')).filter((f) => f.startsWith('call-')).length;
  g.child.kill('SIGTERM');
  await new Promise((r) => g.child.once('exit', r));
  fs.rmSync(path.join(ws, '.context'), { recursive: true, force: true });
}
await upstream.close();
fs.rmSync(ws, { recursive: true, force: true });
const base = rows[0];
if (values.json) {
  process.stdout.write(JSON.stringify({ kb: Number(values.kb), calls: CALLS, rounds: ROUNDS, load: os.loadavg()[0], rows }) + '\n');
  process.exit(0);
}
console.log(`${values.kb} KB streaming calls on 127.0.0.1 (${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}): ${CALLS} one at a time, then ${CALLS} at once × ${ROUNDS} rounds; time to the last byte`);
const f = (x) => x.toFixed(1).padStart(6);
for (const r of rows) {
  const added = r === base ? '' : `   added: one at a time p50 ${f(r.seq50 - base.seq50)} p99 ${f(r.seq99 - base.seq99)}; at once p50 ${f(r.p50 - base.p50)} p99 ${f(r.p99 - base.p99)} ms`;
  console.log(`${r.label.padEnd(28)} one at a time p50 ${f(r.seq50)} p99 ${f(r.seq99)} ms; ${CALLS} at once p50 ${f(r.p50)} p99 ${f(r.p99)} ms; ${r.events} events${r.rssMb ? `; gateway rss ${r.rssMb} MB, ${r.records} records` : ''}${added}`);
}
