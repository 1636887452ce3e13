import matter from 'gray-matter';
import { isMap, parseDocument } from 'yaml';
import { InputError } from '../errors';

export interface Parsed {
  data: Record<string, unknown>;
  body: string;
  /** Line (1-based) of the body's first line in the original file. */
  bodyLine: number;
  /** Front matter that was not read as data (a language other than YAML): the text is kept, the warning names the line. */
  warning?: { line: number; message: string };
}

/** The opening fence and the language written after it (`---`, `--- yaml`, `---js`, `---coffee`…). */
const OPEN = /^---[ \t]*([^\s-][^\s]*)?[ \t]*$/;
const CLOSE = /^---[ \t]*$/;
const YAML_LANGUAGES = new Set(['', 'yaml', 'yml']);

/**
 * Split front matter from the body. Front matter is data: it is parsed as YAML with `yaml` (core schema, no custom
 * tags) and nothing else. A fence naming another language (`---js`, `---javascript`, `---coffee`, `---json`…) is
 * never evaluated: the file is read as text and the caller gets a warning with the line. Malformed YAML is an
 * InputError with the file's line and column (counting the opening fence).
 */
export function parseFrontMatter(text: string, file: string): Parsed {
  const clean = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  const firstEnd = clean.indexOf('\n');
  const first = firstEnd < 0 ? clean : clean.slice(0, firstEnd);
  const open = OPEN.exec(first);
  if (!open) return { data: {}, body: clean, bodyLine: 1 };
  const lines = clean.split('\n');
  const end = lines.findIndex((l, i) => i > 0 && CLOSE.test(l));
  if (end < 0) return { data: {}, body: clean, bodyLine: 1 };
  const language = (open[1] ?? '').toLowerCase();
  if (!YAML_LANGUAGES.has(language)) {
    return { data: {}, body: clean, bodyLine: 1, warning: { line: 1, message: `front matter in an unsupported language "${open[1]}" is not run or parsed (only YAML is); the file is read as text` } };
  }
  // gray-matter splits and dispatches, with its engines locked down: YAML goes to `yaml` (core schema), and every
  // engine that could evaluate code (its JavaScript and CoffeeScript engines) or parse another language throws.
  const data = matter(lines.slice(0, end + 1).join('\n'), { language: 'yaml', engines: lockedEngines(file) }).data as Record<string, unknown>;
  const blank = lines[end + 1] === '' ? 1 : 0;
  return { data, body: lines.slice(end + 1 + blank).join('\n'), bodyLine: end + 2 + blank };
}

/** Engines that refuse to run: gray-matter looks an engine up by the fence's language and by its alias. */
const REFUSED = ['javascript', 'js', 'coffee', 'coffeescript', 'cson', 'json', 'toml'];

function lockedEngines(file: string): Record<string, (src: string) => object> {
  const engines: Record<string, (src: string) => object> = { yaml: (src) => yamlData(src, file), yml: (src) => yamlData(src, file) };
  for (const name of REFUSED) {
    engines[name] = () => {
      throw new InputError(`front matter in "${name}" is never evaluated`, file, 1);
    };
  }
  return engines;
}

/** Front matter as data: YAML core schema, aliases capped; errors carry the file's line (the fence is line 1). */
function yamlData(src: string, file: string): Record<string, unknown> {
  const doc = parseDocument(src, { schema: 'core', uniqueKeys: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const pos = e.linePos?.[0];
    throw new InputError(`malformed front matter: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`, file, pos?.line, pos?.col); // gray-matter hands the engine the text after the fence, newline included: lines are the file's
  }
  if (doc.contents !== null && !isMap(doc.contents)) throw new InputError('malformed front matter: expected key: value pairs', file, 2, 1);
  try {
    return doc.contents === null ? {} : (doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>);
  } catch (e) {
    throw new InputError(`malformed front matter: ${(e as Error).message.split('\n')[0]}`, file, 2, 1);
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
