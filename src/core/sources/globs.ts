import * as path from 'node:path';
import picomatch from 'picomatch';
import { Lru } from '../lru';

/**
 * `picomatch(globs, options)` as one test: the globs' regular expressions joined into one alternation, and the globs
 * themselves for picomatch's exact-equality match. picomatch's list matcher runs each glob's matcher in turn (the
 * policy's 7 excludes, tested twice per file, were ~8 % of a 100 000-file scan). Same answers: a glob matches an input
 * equal to it, else when its expression matches the input (backslashes turned to slashes on Windows, as picomatch
 * does); an empty input matches nothing. Options that change that (`ignore`, `matchBase`, `basename`, `format`,
 * `capture`, callbacks) are not taken.
 *
 * Before the expression, a pre-check: when every glob has a run of plain characters that any input its expression
 * matches must hold (requiredLiteral), an input holding none of them is no match, told without the expression (the
 * scan asks about every file of the workspace; most hold none of `node_modules`, `.log`, `junit`…).
 */
export interface GlobOptions {
  dot?: boolean;
  nocase?: boolean;
}

/** Matchers made in this process, by globs and options: the chain asks for the policy's at every call. */
const made = new Lru<string, (input: string) => boolean>(64);

export function globMatcher(globs: readonly string[], options: GlobOptions = {}): (input: string) => boolean {
  const key = `${options.dot === true ? 'd' : ''}${options.nocase === true ? 'i' : ''}:${JSON.stringify(globs)}`;
  let matcher = made.get(key);
  if (!matcher) made.set(key, (matcher = makeMatcher(globs, options)));
  return matcher;
}

function makeMatcher(globs: readonly string[], options: GlobOptions): (input: string) => boolean {
  if (globs.length === 0) return () => false;
  const windows = path.sep === '\\';
  const res = globs.map((g) => picomatch.makeRe(g, { ...options, windows }));
  const flags = res[0].flags;
  if (res.some((r) => r.flags !== flags)) return picomatch([...globs], { ...options, windows });
  const combined = new RegExp(res.map((r) => r.source).join('|'), flags);
  const exact = new Set(globs);
  const nocase = options.nocase === true;
  const literals = globs.map((g) => requiredLiteral(g, nocase));
  const hint = literals.every((l): l is string => l !== undefined) && !(nocase && flags.includes('u')) ? [...new Set(literals)] : undefined;
  const mayMatch = (output: string) => {
    if (!hint) return true;
    const text = nocase ? output.toLowerCase() : output;
    return hint.some((l) => text.includes(l));
  };
  return (input) => {
    if (input === '') return false;
    const output = windows ? input.replace(/\\/g, '/') : input;
    return exact.has(input) || exact.has(output) || (mayMatch(output) && combined.test(output));
  };
}

/**
 * The longest run of plain characters (no `*`, `?` or `/`, outside brace groups) of a glob: every input picomatch's
 * expression for the glob matches holds it (with `nocase`, in lower case: the run must then be ASCII, whose case the
 * expression's `i` flag folds as toLowerCase does). undefined when the glob has escapes, classes, extglobs or a
 * negation, whose reading is not sure here, or no such run (`**`, `*.*`).
 */
export function requiredLiteral(glob: string, nocase = false): string | undefined {
  if (/[\\[\]()!+@]/.test(glob)) return undefined;
  let depth = 0;
  let plain = '';
  for (const ch of glob.replace(/^(?:\.\/)+/, '')) {
    if (ch === '{') {
      depth++;
      plain += '*';
    } else if (ch === '}') {
      if (depth === 0) return undefined;
      depth--;
    } else if (depth === 0) plain += ch;
  }
  if (depth !== 0) return undefined;
  const runs = plain.split(/[*?/]/).filter((r) => r !== '' && r !== '.' && r !== '..');
  const longest = runs.reduce<string | undefined>((best, r) => (best === undefined || r.length > best.length ? r : best), undefined);
  if (longest === undefined || (nocase && [...longest].some((c) => c.charCodeAt(0) > 0x7f))) return undefined;
  return nocase ? longest.toLowerCase() : longest;
}
