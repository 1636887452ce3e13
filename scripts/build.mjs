// Bundles the extension and the CLI with esbuild. `--watch` rebuilds on change.
import * as esbuild from 'esbuild';

// jsonc-parser's UMD build requires its parts at run time, which a bundle cannot follow: bundle its ESM build.
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning', alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' } };
const targets = [
  { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' },
  { ...common, entryPoints: ['src/vscode/worker/assemble-worker.ts'], outfile: 'dist/assemble-worker.js' },
  { ...common, entryPoints: ['src/vscode/worker/send-worker.ts'], outfile: 'dist/send-worker.js' },
  { bundle: true, platform: 'browser', target: 'es2022', format: 'iife', sourcemap: true, logLevel: 'warning', entryPoints: ['src/webview/panel.ts'], outfile: 'dist/webview.js' },
];

if (process.argv.includes('--watch')) {
  for (const t of targets) await (await esbuild.context(t)).watch();
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
}
