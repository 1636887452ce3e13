import matter from 'gray-matter';
import { InputError } from '../errors';

export interface Parsed {
  data: Record<string, unknown>;
  body: string;
  /** Line (1-based) of the body's first line in the original file. */
  bodyLine: number;
}

/**
 * Split front matter from the body. Malformed front matter is an InputError with the file's line and column
 * (gray-matter counts lines inside the front matter; we add the opening fence).
 */
export function parseFrontMatter(text: string, file: string): Parsed {
  const clean = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  if (!clean.startsWith('---')) return { data: {}, body: clean, bodyLine: 1 };
  try {
    // An empty options object disables gray-matter's cache, which would otherwise hand back stale results.
    const parsed = matter(clean, {});
    const data = (parsed.data ?? {}) as Record<string, unknown>;
    const consumed = clean.length - parsed.content.length;
    const bodyLine = clean.slice(0, consumed).split('\n').length;
    return { data, body: parsed.content.replace(/^\n/, ''), bodyLine: parsed.content.startsWith('\n') ? bodyLine + 1 : bodyLine };
  } catch (e) {
    const err = e as { reason?: string; message: string; mark?: { line: number; column: number } };
    const line = err.mark ? err.mark.line + 2 : undefined;
    const column = err.mark ? err.mark.column + 1 : undefined;
    throw new InputError(`malformed front matter: ${err.reason ?? err.message.split('\n')[0]}`, file, line, column);
  }
}

/** A string or list of strings from front matter, normalised to a trimmed list. */
export function stringList(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
  return String(value)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

export function stringValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const s = String(value).trim();
  return s === '' ? undefined : s;
}

/** The first Markdown heading's text, and its line. */
export function firstHeading(body: string): string | undefined {
  const m = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(body);
  return m ? m[1].trim() : undefined;
}
