import * as path from 'node:path';
import { InputError } from '../core/errors';
import { normalizePath, pathProblem, type Overrides } from '../core/sources/overrides';

/**
 * `--include PATH` / `--exclude PATH` (repeatable): workspace-relative paths, or absolute paths inside the workspace.
 * The same path in both is bad input; the flags go on top of `.context/overrides.json` (sources/overrides.ts).
 */
export function overrideFlags(values: Record<string, unknown>, root: string): Partial<Overrides> {
  const list = (flag: 'include' | 'exclude') =>
    ((values[flag] ?? []) as string[]).map((p) => {
      const rel = path.isAbsolute(p) ? path.relative(root, p).split(path.sep).join('/') + (p.endsWith('/') ? '/' : '') : p;
      const problem = pathProblem(rel);
      if (problem) throw new InputError(`--${flag} ${p}: ${problem.replace(`"${rel}"`, 'the path')}`);
      return normalizePath(rel);
    });
  const out = { include: list('include'), exclude: list('exclude') };
  const both = out.include.find((p) => out.exclude.includes(p));
  if (both) throw new InputError(`--include and --exclude both name ${both}: keep one`);
  return out;
}
