// Added latency of `ctxctl gateway` on 127.0.0.1 (its own process, dist/cli.js). Every call is a streaming
// Anthropic Messages request of --kb KB (default 100) whose last user turn carries a --result-kb KB tool result
// (default 50, a log with errors): observe mode forwards it byte for byte, control mode offloads and trims that
// result (the bench checks the upstream got the smaller body). Each round sends --calls calls one at a time, then
// --calls at once (default 50), to the fake upstream directly, through a bare node pipe proxy (the floor of any
// proxy in node on this machine) and through each gateway, in a rotating order; every call is a new conversation
// (nothing is replayed). Reported: p50/p99 of the time to the last byte and the added latency against the direct
// calls of the same rounds, every stream compared byte for byte with the upstream's answer (a dropped or changed
// event is counted), the gateway's CPU per call (records included: measured once it is quiet again; the main
// thread's alone, the request path) and its RSS.
// Needs `npx tsc -p .` and the build.
// Usage: node scripts/bench/gateway.mjs [--calls 50] [--rounds 5] [--kb 100] [--result-kb 50] [--json]
//          [--vs DIR]   also a gateway built in DIR (its dist/cli.js), measured in the same rounds (before/after)
//          [--prof DIR] the gateways run with --cpu-prof, profiles written to DIR when they stop
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
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    kb: { type: 'string', default: '100' },
    'result-kb': { type: 'string', default: '50' },
    json: { type: 'boolean', default: false },
    vs: { type: 'string' },
    prof: { type: 'string' },
  },
});
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const KB = Number(values.kb);
const RESULT_KB = Number(values['result-kb']);

/** `n` bytes of lines from `line(i)`. */
function filled(bytes, line) {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += line(i);
  return out.slice(0, bytes);
}

/**
 * One call's tool result: a log of --result-kb KB, an error with its stack frame every 150 lines. Each call's is its
 * own (times, carts, users and request ids differ, as two runs of a command do), so nothing an earlier call counted,
 * redacted or trimmed serves it: with one log shared by every call, its token counts came from the counter's cache.
 */
function logOf(tag) {
  let seed = 0;
  for (const c of tag) seed = (Math.imul(seed, 31) + c.charCodeAt(0)) >>> 0;
  return filled(RESULT_KB * 1024, (i) => {
    const n = (seed + Math.imul(i, 7919)) >>> 0;
    const at = `2026-12-01T10:${String((seed + i) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.${String(n % 1000).padStart(3, '0')}Z`;
    return i % 150 === 7
      ? `${at} ERROR [order-svc] reservation failed for order ${1000 + (n % 90000)} (req=${n.toString(16)}): upstream inventory timed out after 3000 ms\n    at Inventory.reserve (src/inventory.ts:88:11)\n`
      : `${at} INFO [order-svc] GET /api/cart/${1000 + (n % 90000)} 200 ${n % 50}ms user=${n % 97}\n`;
  });
}
const SOURCE = (bytes) => filled(bytes, (i) => `export function handler${i}(req: Request): Response {\n  return respond(req, ${i}); // route ${i}\n}\n`);

/** One request: a new conversation (its first user text names the call), a file read earlier, the log last. */
function payload(tag) {
  const history = Math.max(0, KB * 1024 - RESULT_KB * 1024 - 600);
  return JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    stream: true,
    system: [{ type: 'text', text: 'You are a coding agent.' }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: `call ${tag}: why do reservations fail?` }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: `r-${tag}`, name: 'Read', input: { file_path: 'src/handlers.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `r-${tag}`, content: SOURCE(history) }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: `b-${tag}`, name: 'Bash', input: { command: 'kubectl logs order-svc' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `b-${tag}`, content: logOf(tag) }] },
    ],
  });
}

function call(url, body) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const chunks = [];
    const req = http.request(url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'bench' }, agent: false }, (res) => {
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ total: Number(process.hrtime.bigint() - t0) / 1e6, answer: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** utime + stime of a process and its threads (or of its main thread alone), in ms (clock ticks of 10 ms). */
function cpuMs(pid, mainThread = false) {
  const f = fs.readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) * 10;
}

function rssMb(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch {
    return undefined;
  }
}

/** Until no gateway has used CPU for 300 ms (its records written); a profiled one never is: 3 s then. */
async function quiet(pids) {
  if (values.prof) return new Promise((r) => setTimeout(r, 3000));
  let last = pids.map(cpuMs);
  for (let still = 0, waited = 0; still < 3 && waited < 300; waited++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = pids.map(cpuMs);
    still = now.every((v, i) => v === last[i]) ? still + 1 : 0;
    last = now;
  }
}

function spawnListening(args, label) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => (err = (err + c).slice(-4000)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
    child.once('exit', (code) => reject(new Error(`${label} exited ${code}: ${err}`)));
  });
}

/** The least a proxy in node does: the request piped upstream, the answer piped back. */
function pipeProxy(upstreamUrl) {
  const u = new URL(upstreamUrl);
  const script = `const http = require('http'); const s = http.createServer((req, res) => { const up = http.request({ host: ${JSON.stringify(u.hostname)}, port: ${u.port}, method: req.method, path: req.url, headers: req.headers }, (a) => { res.writeHead(a.statusCode, a.headers); a.pipe(res); }); req.pipe(up); }); s.listen(0, '127.0.0.1', () => console.log('proxy listening on http://127.0.0.1:' + s.address().port));`;
  return spawnListening(['-e', script], 'the pipe proxy');
}

function gateway(build, mode, ws, upstreamUrl) {
  const prof = values.prof ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(values.prof, build === root ? mode : `${mode}-vs`)] : [];
  return spawnListening([...prof, path.join(build, 'dist', 'cli.js'), 'gateway', '--workspace', ws, '--port', '0', '--mode', mode, '--anthropic-upstream', upstreamUrl], `the ${mode} gateway of ${build}`);
}

const upstream = await startFakeUpstream();
const reference = (await call(upstream.url, payload('reference'))).answer;
const expectedEvents = reference.toString('utf8').split('\n\n').length - 1;
const builds = [{ dir: root, name: '' }, ...(values.vs ? [{ dir: path.resolve(values.vs), name: ' (vs)' }] : [])];
const targets = [{ label: 'direct', url: upstream.url }];
const proxy = await pipeProxy(upstream.url);
targets.push({ label: 'node pipe proxy', url: proxy.url, child: proxy.child });
const spaces = [];
for (const b of builds) {
  for (const mode of ['observe', 'control']) {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), `ctxctl-bench-gw-${mode}-`));
    spaces.push(ws);
    const g = await gateway(b.dir, mode, ws, upstream.url);
    targets.push({ label: `${mode}${b.name}`, mode, url: g.url, child: g.child, ws });
  }
}
for (const t of targets) Object.assign(t, { seq: [], once: [], streams: 0, bad: 0, events: 0, cpu: 0, mainCpu: 0, sentBytes: 0, sentCalls: 0 });
const pids = targets.filter((t) => t.child).map((t) => t.child.pid);

// Warm-up: each target gets a few calls, not counted.
for (const t of targets) await Promise.all([0, 1, 2, 3, 4].map((i) => call(t.url, payload(`warm ${t.label} ${i}`))));
await quiet(pids);

const check = (t, got) => {
  t.streams++;
  t.events += got.answer.toString('utf8').split('\n\n').length - 1;
  if (!got.answer.equals(reference)) t.bad++;
};
for (let r = 0; r < ROUNDS; r++) {
  const order = targets.map((_, i) => targets[(i + r) % targets.length]);
  for (const t of order) {
    const bodies = Array.from({ length: CALLS }, (_, i) => payload(`${r}.${i} ${t.label}`));
    const cpu0 = t.child ? cpuMs(t.child.pid) : 0;
    const main0 = t.child ? cpuMs(t.child.pid, true) : 0;
    upstream.requests.length = 0;
    for (const b of bodies) {
      const got = await call(t.url, b);
      t.seq.push(got.total);
      check(t, got);
    }
    // The calls at once are measured with nothing left over from the calls before (their records written).
    await quiet(pids);
    // New conversations again, each with its own tool result (the calls one at a time already sent theirs).
    const again = bodies.map((_, i) => payload(`${r}.${i} ${t.label} again`));
    const got = await Promise.all(again.map((b) => call(t.url, b)));
    for (const g of got) {
      t.once.push(g.total);
      check(t, g);
    }
    t.sentBytes += upstream.requests.reduce((n, q) => n + q.body.length, 0);
    t.sentCalls += upstream.requests.length;
    upstream.requests.length = 0;
    await quiet(pids);
    if (t.child) {
      t.cpu += cpuMs(t.child.pid) - cpu0;
      t.mainCpu += cpuMs(t.child.pid, true) - main0;
    }
  }
}

const rows = [];
for (const t of targets) {
  const records = t.ws && fs.existsSync(path.join(t.ws, '.context', 'gateway')) ? fs.readdirSync(path.join(t.ws, '.context', 'gateway')).filter((f) => f.startsWith('call-')).length : undefined;
  rows.push({
    label: t.label,
    seq50: pct(t.seq, 50), seq99: pct(t.seq, 99), p50: pct(t.once, 50), p99: pct(t.once, 99),
    streams: t.streams, bad: t.bad, events: t.events, expectedEvents: expectedEvents * t.streams,
    sentKb: Number((t.sentBytes / Math.max(1, t.sentCalls) / 1024).toFixed(1)),
    ...(t.child ? { cpuMsPerCall: Number((t.cpu / (ROUNDS * CALLS * 2)).toFixed(2)), mainCpuMsPerCall: Number((t.mainCpu / (ROUNDS * CALLS * 2)).toFixed(2)), rssMb: rssMb(t.child.pid) } : {}),
    ...(records !== undefined ? { records } : {}),
  });
}
for (const t of targets.filter((x) => x.child)) {
  t.child.kill('SIGTERM');
  await new Promise((r) => (t.child.exitCode !== null ? r() : t.child.once('exit', r)));
}
await upstream.close();
for (const ws of spaces) fs.rmSync(ws, { recursive: true, force: true });
const base = rows[0];
const load = os.loadavg()[0];
if (values.json) {
  process.stdout.write(JSON.stringify({ kb: KB, resultKb: RESULT_KB, calls: CALLS, rounds: ROUNDS, load, rows }) + '\n');
  process.exit(0);
}
console.log(`${KB} KB streaming calls (the last turn a ${RESULT_KB} KB tool result) on 127.0.0.1 (${os.cpus().length} cores, load ${load.toFixed(1)} at the end): per round ${CALLS} one at a time, then ${CALLS} at once; ${ROUNDS} rounds; time to the last byte`);
const f = (x) => x.toFixed(1).padStart(6);
for (const r of rows) {
  console.log(`${r.label.padEnd(18)} one at a time p50 ${f(r.seq50)} p99 ${f(r.seq99)}; ${CALLS} at once p50 ${f(r.p50)} p99 ${f(r.p99)} ms; ${r.events}/${r.expectedEvents} events, ${r.bad} streams differ; upstream got ${r.sentKb} KB/call${r.cpuMsPerCall !== undefined ? `; cpu ${r.cpuMsPerCall} ms/call (main thread ${r.mainCpuMsPerCall}), rss ${r.rssMb} MB` : ''}${r.records !== undefined ? `, ${r.records} records` : ''}`);
  if (r !== base) console.log(`${''.padEnd(18)} added: one at a time p50 ${f(r.seq50 - base.seq50)} p99 ${f(r.seq99 - base.seq99)}; ${CALLS} at once p50 ${f(r.p50 - base.p50)} p99 ${f(r.p99 - base.p99)} ms`);
}
