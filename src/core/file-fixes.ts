import { CHECKS_FILE, parseChecks } from './compare/checks-file';
import { InputError, type QuickFix } from './errors';
import { parsePolicy } from './policy';
import { entryFixes, lineColumnAt, OVERRIDES_JSON, PINS_JSON } from './quick-fix';
import { parseOverrides } from './sources/overrides';

/** Which of the workspace's settings files a path is: the policy (any `.context` YAML but checks), pins, overrides, checks. */
export type SettingsFile = 'policy' | 'pins' | 'overrides' | 'checks';

export function settingsFileKind(rel: string): SettingsFile | undefined {
  const p = rel.replace(/\\/g, '/');
  if (p === PINS_JSON) return 'pins';
  if (p === OVERRIDES_JSON) return 'overrides';
  if (p === CHECKS_FILE || /(^|\/)\.context\/checks\.ya?ml$/.test(p)) return 'checks';
  if (/(^|\/)\.context\/(policies\/)?[^/]+\.ya?ml$/.test(p)) return 'policy';
  return undefined;
}

/** One fixable problem of a settings file's current text: where (1-based), how long, what, and the fix. */
export interface FileFix {
  line: number;
  column: number;
  length: number;
  message: string;
  fix: QuickFix;
}

/**
 * The quick fixes for a settings file's text as it is now (the editor's buffer): the parser's own fix for the first
 * error it meets, and for pins.json and overrides.json every entry that names no workspace path.
 */
export function fileFixes(rel: string, text: string, exists: (rel: string) => boolean): FileFix[] {
  const kind = settingsFileKind(rel);
  if (!kind) return [];
  try {
    if (kind === 'policy') parsePolicy(text, rel);
    else if (kind === 'checks') parseChecks(text, rel);
    else if (kind === 'overrides') parseOverrides(text, rel);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    if (!e.fix) return [];
    const first = e.fix.edits[0];
    return [{ ...lineColumnAt(text, first.offset), length: first.length, message: e.message, fix: e.fix }];
  }
  if (kind !== 'pins' && kind !== 'overrides') return [];
  return entryFixes(kind === 'pins' ? PINS_JSON : OVERRIDES_JSON, text, exists).map(({ file: _file, ...f }) => f);
}
