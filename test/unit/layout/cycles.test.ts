import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from '../helpers';

/**
 * No import cycle in src/, type-only imports included: every `import … from`, `export … from`, `import('…')` and
 * `require('…')` with a relative specifier is an edge. A cycle fails the test and is printed as a path.
 */

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

export function listSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return listSources(p);
    return /\.tsx?$/.test(d.name) && !d.name.endsWith('.d.ts') ? [p] : [];
  });
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c) && fs.statSync(c).isFile() && /\.tsx?$/.test(c));
}

/** The relative imports of a source text (comments removed first, so an example in a comment is not an edge). */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2]).filter((s) => s.startsWith('.'));
}

/** Every cycle's strongly connected component, as one cycle path through it (a → b → … → a). */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(comp);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((comp) => cyclePath(graph, new Set(comp)));
}

/** A shortest cycle through the component's first node (sorted), by breadth-first search inside the component. */
function cyclePath(graph: Map<string, string[]>, comp: Set<string>): string[] {
  const start = [...comp].sort()[0];
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!comp.has(w)) continue;
      if (w === start) {
        const out = [start];
        for (let x = v; x !== start; x = prev.get(x)!) out.splice(1, 0, x);
        return [...out, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

describe('import graph of src/', () => {
  it('finds a cycle, type-only edges included, and prints it as a path', () => {
    assert.deepEqual(importsOf(`import type { A } from './a';\nexport { b } from "../b";\n// import { c } from './c';\nconst d = require('./d');`), ['./a', '../b', './d']);
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []], ['e', ['e']]]);
    assert.deepEqual(findCycles(graph), [['a', 'b', 'c', 'a'], ['e', 'e']]);
  });

  it('has no import cycle', () => {
    const src = path.join(REPO, 'src');
    const graph = new Map<string, string[]>();
    for (const file of listSources(src)) {
      const deps = importsOf(fs.readFileSync(file, 'utf8'))
        .map((s) => resolveImport(file, s))
        .filter((d): d is string => d !== undefined);
      graph.set(path.relative(REPO, file), [...new Set(deps.map((d) => path.relative(REPO, d)))]);
    }
    assert.ok(graph.size > 100, `only ${graph.size} source files found under ${src}`);
    const cycles = findCycles(graph);
    assert.equal(cycles.length, 0, `import cycles in src/:\n${cycles.map((c) => `  ${c.join(' → ')}`).join('\n')}`);
  });
});
