import * as path from 'node:path';

/**
 * The chain's entry points a surface must reach through the ContextEngine (src/core/engine.ts, or its chain-free part
 * src/core/folder-engine.ts), never directly: what a file imports (values, not types) from the modules that define
 * them. Adapters (src/cli, src/vscode) are checked, and so is the core itself outside the engine and the chain.
 */
const GUARDED: Record<string, string[]> = {
  'core/chain/assemble': ['assemble'],
  'core/chain/pipeline': ['assemble'],
  'core/sources/snapshot': ['loadSnapshot', 'loadPolicy'],
  'core/session/summary-store': ['workspaceSummaries'],
  'core/relevance/index': ['RelevanceIndex'],
  'core/send/loop': ['sendLoop'],
  'core/compare/run': ['compare'],
  'core/compare/check-run': ['runCase'],
};

/**
 * The guarded module a specifier names: an adapter's `../core/chain/assemble` as written; with `from` (the importing
 * file's absolute path), a relative specifier is resolved first, so the core's own `../chain/assemble` is caught too.
 */
function moduleOf(spec: string, from?: string): string | undefined {
  const full = from && spec.startsWith('.') ? path.resolve(path.dirname(from), spec).split(path.sep).join('/') : spec;
  return Object.keys(GUARDED).find((m) => full.endsWith(from ? `/src/${m}` : m));
}

/** Each way the text reaches a guarded entry point: `imports NAME from MODULE` or `requires MODULE`. */
export function chainBypasses(text: string, from?: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    const mod = moduleOf(m[3], from);
    if (m[1] || !mod) continue;
    for (const raw of m[2].split(',')) {
      const spec = raw.trim();
      if (!spec || spec.startsWith('type ')) continue;
      const name = spec.split(/\s+as\s+/)[0].trim();
      if (GUARDED[mod].includes(name)) found.push(`imports ${name} from ${m[3]}`);
    }
  }
  for (const m of text.matchAll(/require\(\s*'([^']+)'\s*\)/g)) if (moduleOf(m[1], from)) found.push(`requires ${m[1]}`);
  for (const m of text.matchAll(/import\s+\*\s+as\s+\w+\s+from\s*'([^']+)'/g)) if (moduleOf(m[1], from)) found.push(`imports everything from ${m[1]}`);
  return found;
}
