// The tokenizer comparison: js-tiktoken (whose rank files the chain uses), gpt-tokenizer and the reference tiktoken (WASM), each
// loaded in a fresh process, on a corpus of code, logs, prose, CJK, emoji and BOMs. Counts are compared with the
// reference exactly; the chain's own counter (tokens.ts: js-tiktoken's rank files, its own exact byte-pair merge) is
// compared too.
//
//   node scripts/bench/tokenizers.mjs CORPUS_DIR NAME   (child: prints one JSON line)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../prng.mjs';
import { writeLog, once } from './gen.mjs';
import { node } from './measure.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TOKENIZERS = ['tiktoken (WASM, reference)', 'js-tiktoken', 'gpt-tokenizer', 'ours (tokens.ts counter)'];

/** The corpus, one file per kind (about 1 MB each, deterministic). */
export function corpus(base) {
  return once(path.join(base, 'corpus'), 'corpus v1', (d) => {
    const src = [];
    const walk = (dir) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (e.isDirectory()) walk(path.join(dir, e.name));
        else if (e.name.endsWith('.ts')) src.push(fs.readFileSync(path.join(dir, e.name), 'utf8'));
      }
    };
    walk(path.join(root, 'src'));
    fs.writeFileSync(path.join(d, 'code.txt'), src.join('\n').slice(0, 1 << 20));
    writeLog(path.join(d, 'logs.txt'), 1 << 20, 11);
    const docs = path.join(root, 'docs');
    const prose = [path.join(root, 'README.md'), ...fs.readdirSync(docs).filter((f) => f.endsWith('.md')).sort().map((f) => path.join(docs, f))];
    fs.writeFileSync(path.join(d, 'prose.txt'), prose.map((f) => fs.readFileSync(f, 'utf8')).join('\n\n').repeat(3).slice(0, 1 << 20));
    const rand = mulberry32(42);
    const cjk = '支付失败，请检查账户余额。日志显示超时错误。決済サービスがタイムアウトしました。再試行してください。결제가 거부되었습니다。';
    fs.writeFileSync(path.join(d, 'cjk.txt'), Array.from({ length: 12000 }, () => cjk.slice(Math.floor(rand() * 20), 20 + Math.floor(rand() * 40))).join('\n'));
    const emoji = ['👍', '🚀', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇫🇷', '✅', '❌', '🔥', '👩🏽‍💻', '🤖', '💥', '🧪'];
    fs.writeFileSync(path.join(d, 'emoji.txt'), Array.from({ length: 40000 }, (_, i) => `${emoji[Math.floor(rand() * emoji.length)]}${i % 7 === 0 ? ' deploy ok\n' : ' '}`).join(''));
    const bom = '\uFEFF';
    fs.writeFileSync(path.join(d, 'boms.txt'), Array.from({ length: 20000 }, (_, i) => `${bom}line ${i} ${bom}value=${i * 7}${i % 3 ? bom : ''}`).join('\n'));
  });
}

/**
 * Our counter only: one 1 MB run of random lowercase letters (one pre-tokenized piece, no white space), counted whole,
 * in `longRunMs` with its count in `longRunTokens`. The reference and js-tiktoken merge a piece in quadratic time
 * (the reference takes about 13 s on 100 KB), so they are not given it.
 */
const LONG_RUN = `let seed = 1; let run = ''; for (let i = 0; i < 1 << 20; i++) { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; run += String.fromCharCode(97 + (seed >>> 16) % 26); }
const t2 = performance.now(); globalThis.__out.longRunTokens = count(run); globalThis.__out.longRunMs = performance.now() - t2;`;

/** Child bodies: load, then count every corpus file; load and count times are reported separately. */
function body(name, dir, core) {
  const files = JSON.stringify(fs.readdirSync(dir).filter((f) => f.endsWith('.txt')).sort());
  const load = {
    'tiktoken (WASM, reference)': `const enc = require('tiktoken').get_encoding('o200k_base'); const count = (t) => enc.encode(t, 'all').length;`,
    'js-tiktoken': `const { Tiktoken } = require('js-tiktoken/lite'); const r = require('js-tiktoken/ranks/o200k_base'); const enc = new Tiktoken(r.default ?? r); const count = (t) => enc.encode(t, 'all').length;`,
    'gpt-tokenizer': `const g = require('gpt-tokenizer/cjs/encoding/o200k_base'); const count = (t) => g.countTokens(t);`,
    'ours (tokens.ts counter)': `const c = require(${JSON.stringify(core)}).counterFor('o200k_base'); const count = (t) => c.count(t);`,
  }[name];
  // The child runs with the repository as its working directory (bench.mjs chdirs there): require finds node_modules.
  return `const fs = require('fs'); const t0 = performance.now(); ${load} count('warm up'); const loadMs = performance.now() - t0;
const counts = {}; const t1 = performance.now(); let bytes = 0;
for (const f of ${files}) { const text = fs.readFileSync(require('path').join(${JSON.stringify(dir)}, f), 'utf8'); bytes += Buffer.byteLength(text); counts[f.replace('.txt', '')] = count(text); }
const countMs = performance.now() - t1; globalThis.__out = { loadMs, countMs, mbps: bytes / 1048576 / (countMs / 1000), counts };${name.startsWith('ours') ? LONG_RUN : ''}`;
}

/** One row per tokenizer: load time, throughput, counts, and the kinds where a count differs from the reference. */
export function compareTokenizers(base, core) {
  const dir = corpus(base);
  const rows = TOKENIZERS.map((name) => ({ name, ...node(name, body(name, dir, core)).out }));
  const ref = rows[0].counts;
  for (const r of rows) r.mismatches = Object.keys(ref).filter((k) => r.counts[k] !== ref[k]).map((k) => `${k} ${r.counts[k]} vs ${ref[k]}`);
  return rows;
}
