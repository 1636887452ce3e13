import * as esbuild from 'esbuild';
const r = await esbuild.build({ bundle: true, platform: 'node', target: 'node20', format: 'cjs', write: false, metafile: true, external: ['vscode'], entryPoints: ['src/vscode/extension.ts'], outfile: '/tmp/x.js', logLevel:'error', alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' } });
const ins = r.metafile.inputs;
const heavy = (f) => /js-tiktoken|@anthropic-ai|node_modules\/openai|src\/core\/chain\//.test(f);
const memo = new Map();
function reach(f, seen=new Set()) { if (memo.has(f)) return memo.get(f); if (seen.has(f)) return false; seen.add(f); if (heavy(f)) return true; const v = (ins[f]?.imports||[]).some(i => reach(i.path, seen)); memo.set(f, v); return v; }
for (const f of Object.keys(ins).filter(f => f.startsWith('src/'))) if (!heavy(f)) { const direct = (ins[f].imports||[]).filter(i=>heavy(i.path)).map(i=>i.path); if (direct.length) console.log(f, '->', direct.join(', ')); }
