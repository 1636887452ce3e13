// The tools' declarations (src/core/tool-registry.ts) written where they cannot be computed at run time without zod:
// src/core/tool-schemas.json (each tool's input as JSON Schema: the request's tool definitions and the editor's
// check of a call's input read it) and package.json contributes.languageModelTools. scripts/build.mjs runs it
// first; each file is rewritten only when it changed. test/unit/tools/registry.test.ts checks both against the
// registry, so an edit to one without the other fails.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);

export async function writeToolManifest(root = process.cwd()) {
  // jsonc-parser's UMD build requires its parts at run time, which a bundle cannot follow: its ESM build, as in build.mjs.
  const alias = { 'jsonc-parser': path.join(root, 'node_modules/jsonc-parser/lib/esm/main.js') };
  const built = await esbuild.build({ entryPoints: [path.join(root, 'src/core/tool-registry.ts')], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'warning', alias });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(mod, mod.exports, require);
  const registry = mod.exports;
  const { z } = require('zod');
  const schemas = Object.fromEntries(registry.TOOLS.map((t) => [t.name, registry.inputJsonSchema(z, t)]));
  writeIfChanged(path.join(root, 'src/core/tool-schemas.json'), `${JSON.stringify(schemas, null, 2)}\n`);
  const pkgFile = path.join(root, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  pkg.contributes.languageModelTools = registry.toolsOn('lm').map((t) => registry.languageModelTool(z, t));
  writeIfChanged(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
}

function writeIfChanged(file, text) {
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
}

if (import.meta.url === `file://${process.argv[1]}`) await writeToolManifest();
