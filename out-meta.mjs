import * as esbuild from 'esbuild';
const entry = process.argv[2];
const r = await esbuild.build({ bundle: true, platform: 'node', target: 'node20', format: 'cjs', write: false, metafile: true, external: ['vscode'], entryPoints: [entry], outfile: '/tmp/x.js', logLevel:'error', alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' } });
const out = Object.values(r.metafile.outputs)[0];
console.log(entry, (out.bytes/1024).toFixed(0)+'KB');
const by = {};
for (const [f, v] of Object.entries(out.inputs)) { const k = f.startsWith('node_modules') ? f.split('/').slice(0, f.includes('@')?3:2).join('/') : f.split('/').slice(0,3).join('/'); by[k]=(by[k]||0)+v.bytesInOutput; }
for (const [k,v] of Object.entries(by).sort((a,b)=>b[1]-a[1]).slice(0,25)) console.log((v/1024).toFixed(0).padStart(6), k);
