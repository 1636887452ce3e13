/** What a manifest source names: a workspace file (openable, pinnable), a part of one (`file#L3-L9`), or a built-in. */

/** `builtin:system`, `builtin:tools`, `builtin:index`: produced by the extension, nothing to open. */
export function isBuiltin(source: string): boolean {
  return source.startsWith('builtin:');
}

/** The workspace file a source lives in (`.context/session.jsonl#e17` → `.context/session.jsonl`), or undefined for a built-in. */
export function fileOf(source: string): string | undefined {
  if (isBuiltin(source)) return undefined;
  const file = source.replace(/#.*$/, '');
  return file || undefined;
}

/** A whole workspace file, not a part of one: the only sources that Include, Exclude and Pin can name. */
export function isWholeFile(source: string): boolean {
  return !isBuiltin(source) && !source.includes('#') && source.length > 0;
}
