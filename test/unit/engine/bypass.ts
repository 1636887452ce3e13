/**
 * The chain's entry points an adapter must reach through the ContextEngine (src/core/engine.ts), never directly: what
 * a file under src/cli or src/vscode imports (values, not types) from the modules that define them.
 */
const GUARDED: Record<string, string[]> = {
  'core/chain/assemble': ['assemble'],
  'core/chain/pipeline': ['assemble'],
  'core/sources/snapshot': ['loadSnapshot'],
  'core/session/summary-store': ['workspaceSummaries'],
  'core/relevance/index': ['RelevanceIndex'],
};

const moduleOf = (spec: string) => Object.keys(GUARDED).find((m) => spec.endsWith(m));

/** Each way the text reaches a guarded entry point: `imports NAME from MODULE` or `requires MODULE`. */
export function chainBypasses(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    const mod = moduleOf(m[3]);
    if (m[1] || !mod) continue;
    for (const raw of m[2].split(',')) {
      const spec = raw.trim();
      if (!spec || spec.startsWith('type ')) continue;
      const name = spec.split(/\s+as\s+/)[0].trim();
      if (GUARDED[mod].includes(name)) found.push(`imports ${name} from ${m[3]}`);
    }
  }
  for (const m of text.matchAll(/require\(\s*'([^']+)'\s*\)/g)) if (moduleOf(m[1])) found.push(`requires ${m[1]}`);
  for (const m of text.matchAll(/import\s+\*\s+as\s+\w+\s+from\s*'([^']+)'/g)) if (moduleOf(m[1])) found.push(`imports everything from ${m[1]}`);
  return found;
}
