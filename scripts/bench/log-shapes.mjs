#!/usr/bin/env node
// Issue 30's log shapes: one generated log of each shape, previewed by ctxctl beside `rg -c` on the same file in the
// same run (CPU time, ratio, peak RSS). The files are generated once into the bench's data folder and reused.
//
//   node scripts/bench/log-shapes.mjs [--json] [--data DIR] [--only dense,nginx,…]   (after `node scripts/build.mjs`)
//   CTXCTL_BENCH_LOG_MIB=64 …   a smaller size for quick runs (default 512)
//
// The mixed shape repeats the 16 Loghub 2k samples (github.com/logpai/loghub) read from a local clone named by
// CTXCTL_LOGHUB (a git directory or a work tree); without one that row is skipped. The samples are never committed.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../prng.mjs';
import { once } from './gen.mjs';
import { cliBody, medianRun, node, program, which } from './measure.mjs';

const LOGHUB = ['Android', 'Apache', 'BGL', 'HDFS', 'HPC', 'Hadoop', 'HealthApp', 'Linux', 'Mac', 'OpenSSH', 'OpenStack', 'Proxifier', 'Spark', 'Thunderbird', 'Windows', 'Zookeeper'];

/** Write lines from `next()` (a string of one or more lines, each ending in `\n`) until the file holds `bytes`. */
function fill(file, bytes, next) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let parts = [];
  let size = 0;
  while (written + size < bytes) {
    const s = next();
    parts.push(s);
    size += s.length;
    if (size >= 1 << 20) {
      written += fs.writeSync(fd, parts.join(''));
      parts = [];
      size = 0;
    }
  }
  if (parts.length) fs.writeSync(fd, parts.join(''));
  fs.closeSync(fd);
}

function tools(seed) {
  const rand = mulberry32(seed);
  const int = (n) => Math.floor(rand() * n);
  const hex = (n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[int(16)];
    return s;
  };
  return { rand, int, hex, pick: (xs) => xs[int(xs.length)] };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const PATHS = ['/api/v1/payments', '/api/v1/orders', '/static/app.js', '/healthz', '/api/v1/users/me', '/img/logo.png', '/api/v2/search'];

/** Each shape: the file's name, how to write it, and the `rg -c` pattern that finds its errors. */
export const SHAPES = {
  // A request every 5 lines (one id over its lines); 1 % ERROR and 1 % WARN lines, each error's id on its request's other lines.
  dense: {
    file: 'dense.log',
    version: 2,
    rg: ['-c', 'ERROR'],
    write(file, bytes) {
      const { int, hex, pick } = tools(0xde05e);
      let t = Date.parse('2026-11-12T00:00:00.000Z');
      let n = 0;
      // Hundreds of distinct error templates, as a large service logs them: every one gets sites, every site's id is watched.
      const services = 'Ledger Payment Settlement Refund Invoice Merchant Terminal Batch Export Queue Worker Lock Redis Cache Token Session Audit Tenant Schema Replica Shard Quorum Webhook Gateway Fraud Pricing Catalog Inventory Shipping Notification'.split(' ');
      const ops = 'lookup create update delete export import settle reconcile authorize capture verify publish'.split(' ');
      const reasons = ['Read timed out', 'connection refused', 'card_declined', 'HTTP 503 from upstream', 'constraint violation', 'deadline exceeded', 'lock wait timeout', 'no route to host', 'invalid signature', 'quota exhausted'];
      const errors = services.flatMap((svc, i) => ops.map((op, j) => `${svc}Client.${op} failed on ${svc.toLowerCase()}-${op}: ${reasons[(i + j) % reasons.length]} code=`));
      const warns = ['Ledger slow: retrying in ms=', 'Pool near capacity: active=', 'Deprecated field paymentMethod.legacy used by client v'];
      fill(file, bytes, () => {
        const corr = `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
        const out = [];
        for (let k = 0; k < 5; k++, n++) {
          t += int(20);
          const ts = new Date(t).toISOString();
          const head = `${ts} ${n % 100 === 37 ? 'ERROR' : n % 100 === 71 ? ' WARN' : ' INFO'} 4821 --- [exec-${n % 20}] c.a.p.api.PaymentController : [corr=${corr}] `;
          if (n % 100 === 37) out.push(head + pick(errors) + int(500));
          else if (n % 100 === 71) out.push(head + pick(warns) + int(3000));
          else out.push(head + `step ${k} of request ${pick(PATHS)} id=pay_${hex(16)} amount=${int(50000) / 100} EUR`);
        }
        return out.join('\n') + '\n';
      });
    },
  },
  // nginx's combined format: no level; about 1 % 5xx.
  nginx: {
    file: 'access.log',
    rg: ['-c', ' 5[0-9][0-9] '],
    write(file, bytes) {
      const { int, pick } = tools(0x4e6e);
      let t = Date.parse('2026-11-12T00:00:00.000Z');
      const agents = ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', 'curl/8.5.0', 'okhttp/4.12.0', 'Go-http-client/1.1'];
      fill(file, bytes, () => {
        t += int(50);
        const d = new Date(t);
        const ts = `${String(d.getUTCDate()).padStart(2, '0')}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${d.toISOString().slice(11, 19)} +0000`;
        const r = int(1000);
        const status = r < 10 ? pick([500, 502, 503, 504]) : r < 40 ? 404 : r < 60 ? 302 : 200;
        return `10.${int(256)}.${int(256)}.${int(256)} - - [${ts}] "${pick(['GET', 'GET', 'GET', 'POST'])} ${pick(PATHS)}?page=${int(100)} HTTP/1.1" ${status} ${int(20000)} "-" "${pick(agents)}"\n`;
      });
    },
  },
  // pino: numeric levels, epoch times; 1 % level 50, 1 % level 40.
  pino: {
    file: 'app.log',
    rg: ['-c', '"level":50'],
    write(file, bytes) {
      const { int, hex, pick } = tools(0x9140);
      let t = Date.parse('2026-11-12T00:00:00.000Z');
      let n = 0;
      fill(file, bytes, () => {
        t += int(20);
        n++;
        const level = n % 100 === 13 ? 50 : n % 100 === 61 ? 40 : 30;
        const msg = level === 50 ? pick(['ledger call failed', 'payment rejected', 'db connection lost']) : level === 40 ? pick(['slow request', 'retrying upstream']) : pick(['request completed', 'incoming request', 'cache hit']);
        const err = level === 50 ? `,"err":{"type":"Error","message":"${pick(['Read timed out', 'ECONNRESET', 'card_declined'])}","stack":"Error: boom\\n    at handler (/srv/app/handler.js:${int(400)}:12)"}` : '';
        return `{"level":${level},"time":${t},"pid":4821,"hostname":"web-${n % 4}","reqId":"req-${hex(10)}","req":{"method":"${pick(['GET', 'POST'])}","url":"${pick(PATHS)}"},"responseTime":${int(900)}${err},"msg":"${msg}"}\n`;
      });
    },
  },
  // syslog (RFC 3164 style): programs, pids, about 1 % lines with an error word.
  syslog: {
    file: 'syslog.log',
    rg: ['-c', 'error'],
    write(file, bytes) {
      const { int, pick } = tools(0x5150);
      let t = Date.parse('2026-11-12T00:00:00.000Z');
      const ok = [
        (p) => `sshd[${p}]: Accepted publickey for deploy from 10.0.${int(256)}.${int(256)} port ${1024 + int(60000)} ssh2`,
        (p) => `CRON[${p}]: (root) CMD (run-parts /etc/cron.hourly)`,
        () => `systemd[1]: Started Session ${int(90000)} of user deploy.`,
        (p) => `kernel: [${int(900000)}.${int(999999)}] eth0: link up, 1000Mbps, full-duplex (pid ${p})`,
        (p) => `dhclient[${p}]: DHCPACK of 10.0.0.${int(256)} from 10.0.0.1`,
      ];
      const bad = [(p) => `sshd[${p}]: error: maximum authentication attempts exceeded for root from 10.9.${int(256)}.${int(256)}`, (p) => `postfix/smtp[${p}]: fatal: error writing message: Connection reset by peer`, () => `kernel: [${int(900000)}.${int(999999)}] EXT4-fs error (device sda1): ext4_find_entry:1455: inode #${int(99999)}: comm java: reading directory lblock 0`];
      fill(file, bytes, () => {
        t += int(800);
        const d = new Date(t);
        const ts = `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)}`;
        return `${ts} host-${int(8)} ${(int(100) === 0 ? pick(bad) : pick(ok))(1000 + int(30000))}\n`;
      });
    },
  },
  // The 16 Loghub samples, in turn, until the size is reached.
  mixed: {
    file: 'system.log',
    rg: ['-c', 'ERROR'],
    needs: 'loghub',
    write(file, bytes, samples) {
      let k = 0;
      fill(file, bytes, () => samples[k++ % samples.length]);
    },
  },
};

/** The 16 Loghub 2k samples from a git directory (git show) or a work tree; undefined when absent. */
export function loghubSamples(source) {
  if (!source || !fs.existsSync(source)) return undefined;
  const out = [];
  for (const name of LOGHUB) {
    const rel = `${name}/${name}_2k.log`;
    const tree = path.join(source, rel);
    let text;
    if (fs.existsSync(tree)) text = fs.readFileSync(tree, 'latin1');
    else {
      const r = spawnSync('git', ['--git-dir', source, 'show', `HEAD:${rel}`], { encoding: 'latin1', maxBuffer: 64 << 20 });
      if (r.status !== 0) return undefined;
      text = r.stdout;
    }
    out.push(text.endsWith('\n') ? text : text + '\n');
  }
  return out;
}

/** The workspace holding one shape's log (generated once) and a task. */
export function shapeWorkspace(base, shape, mib, samples) {
  const s = SHAPES[shape];
  const dir = path.join(base, `shape-${shape}-${mib}`);
  return once(dir, `shape v${s.version ?? 1} ${shape} ${mib}`, (d) => {
    s.write(path.join(d, 'logs', s.file), mib * 1024 * 1024, samples);
    fs.writeFileSync(path.join(d, 'task.md'), 'Why do requests fail?\n');
    fs.mkdirSync(path.join(d, '.context'));
    fs.writeFileSync(path.join(d, '.context', 'policy.yaml'), 'max_file_bytes: 4294967296\n');
  });
}

/** Measure every shape: our preview's CPU time and peak RSS beside `rg -c` on the same file. Returns rows. */
export function measureShapes({ cli, data, mib, only, log = () => {}, loghub = process.env.CTXCTL_LOGHUB }) {
  const rg = which('rg');
  const samples = loghubSamples(loghub);
  const rows = [];
  for (const shape of Object.keys(SHAPES)) {
    if (only && !only.includes(shape)) continue;
    const s = SHAPES[shape];
    if (s.needs === 'loghub' && !samples) {
      log(`log shape ${shape}: skipped (set CTXCTL_LOGHUB to a clone of github.com/logpai/loghub)`);
      continue;
    }
    log(`log shape ${shape}, ${mib} MiB …`);
    const ws = shapeWorkspace(data, shape, mib, samples);
    const file = path.join(ws, 'logs', s.file);
    let ref;
    if (rg) {
      program(rg, [...s.rg, file]); // the page cache is warm for both
      // CPU time to the millisecond (bash's `time`), the median of three runs.
      const r = medianRun(rg, [...s.rg, file]);
      ref = { what: `\`rg ${s.rg.map((a) => (/[ "]/.test(a) ? `'${a}'` : a)).join(' ')}\` CPU`, value: Math.round(r.cpuMs), unit: 'ms', count: Number(r.stdout.trim()) };
    }
    const ours = node(`preview ${shape}`, cliBody(cli, ['preview', '--workspace', ws, '--task', path.join(ws, 'task.md')], `${s.file.replace('.', '\\.')}|FINAL`));
    rows.push({ shape, mib, file, cpuMs: Math.round(ours.cpuMs), wallMs: Math.round(ours.ms), rssMB: Math.round(ours.rssMB), ref, ratio: ref ? Number((ours.cpuMs / ref.value).toFixed(1)) : undefined, result: ours.out });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const data = args.includes('--data') ? path.resolve(args[args.indexOf('--data') + 1]) : path.join(os.tmpdir(), 'ctxctl-bench');
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
  const mib = Number(process.env.CTXCTL_BENCH_LOG_MIB ?? 512);
  const json = args.includes('--json');
  fs.mkdirSync(data, { recursive: true });
  const rows = measureShapes({ cli: path.join(root, 'dist', 'cli.js'), data, mib, only, log: (s) => process.stderr.write(s + '\n') });
  if (json) process.stdout.write(JSON.stringify({ load: os.loadavg(), rows }) + '\n');
  else {
    console.log(`load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    for (const r of rows) console.log(`${r.shape.padEnd(7)} ${r.mib} MiB  ours ${r.cpuMs} ms CPU (${r.wallMs} ms wall), ${r.rssMB} MB RSS  vs ${r.ref ? `${r.ref.what} ${r.ref.value} ms = ${r.ratio}×` : '—'}\n        ${r.result}`);
  }
}
