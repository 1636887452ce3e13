/**
 * The panel's fallback writer of `.context/overrides.json` ({"include": [paths], "exclude": [paths]}), used when the
 * `contextControl.include` / `contextControl.exclude` commands are not registered.
 */
export const OVERRIDES_FILE = '.context/overrides.json';

/** The file after one include or exclude: a path is in at most one list; the lists stay sorted. */
export function applyOverride(current: { include?: unknown; exclude?: unknown }, action: 'include' | 'exclude', file: string): { include: string[]; exclude: string[] } {
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const other = action === 'include' ? 'exclude' : 'include';
  const next = { include: list(current.include), exclude: list(current.exclude) };
  next[other] = next[other].filter((p) => p !== file);
  if (!next[action].includes(file)) next[action] = [...next[action], file].sort();
  return next;
}
