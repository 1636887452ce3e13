import { parse as parseYaml } from 'yaml';
import { InputError } from '../errors';
import type { Warning } from '../types';
import { adrRole, looksLikeDecision, parseDecision, type DecisionMeta } from './adr';
import { firstHeading, parseFrontMatter, stringList, stringValue, type Parsed } from './frontmatter';

export type { DecisionMeta } from './adr';

/** A Markdown document with the metadata the chain prunes and indexes on. */
export interface DocumentFile {
  path: string;
  body: string;
  bodyLine: number;
  title: string;
  summary?: string;
  components?: string[];
  tags?: string[];
  status?: string;
  priority?: number;
  /** Decision records only. */
  decision?: DecisionMeta;
  /** What reading it found wrong (malformed front matter, template placeholders, bad dates); the snapshot reports them. */
  warnings?: Warning[];
}

export const DOCUMENT_EXTENSIONS = /\.(md|markdown|mdx)$/i;

/**
 * Read a document's metadata: front matter first (title, summary, component as a string or a list, status, tags,
 * priority), then the first heading and the first paragraph, clipped. Extractive, no model. A decision record gets
 * its record parsed, whatever its format: inside an ADR folder (`isDecision`) as before, and anywhere else when its
 * content says it is one (sources/adr.ts `looksLikeDecision`: sections, a status, a title), a folder's `index.md`
 * or `README.md` included; an ADR template (by its name) is never a decision in force.
 */
export function parseDocument(path: string, text: string, isDecision: boolean): DocumentFile {
  const named = adrRole(path);
  const front = readFrontMatter(text, path, { quiet: isDecision && named === 'template' });
  const byContent = looksLikeDecision(path, front.data, front.body);
  const role = named === 'template' ? (isDecision || byContent ? 'template' : 'document') : byContent ? 'decision' : isDecision ? named : 'document';
  const { data, body, bodyLine, warnings } = role === 'template' && !isDecision ? readFrontMatter(text, path, { quiet: true }) : front;
  const decision = role === 'document' ? undefined : parseDecision(path, data, body, bodyLine, role === 'template');
  if (decision) warnings.push(...decision.warnings);
  const readable = readableMarkdown(body);
  const title = inlineText(stringValue(data.title) ?? '') || firstHeading(readable) || path.replace(/^.*\//, '');
  const priority = stringValue(data.priority) === undefined ? NaN : Number(data.priority);
  return {
    path,
    body,
    bodyLine,
    title,
    summary: inlineText(stringValue(data.summary) ?? stringValue(data.description) ?? (decision ? decisionSummary(readable) : firstProse(readable)) ?? '') || undefined,
    components: stringList(data.component ?? data.components),
    tags: stringList(data.tags) ?? decision?.tags,
    status: decision?.meta.status ?? stringValue(data.status)?.toLowerCase(),
    priority: Number.isFinite(priority) ? priority : undefined,
    decision: decision?.meta,
    warnings,
  };
}

const HTML_TAG = /<\/?(?:p|div|span|img|a|br|hr|h[1-6]|b|i|u|em|strong|small|big|sub|sup|center|font|picture|source|details|summary|kbd|code|pre|table|thead|tbody|tr|td|th|ul|ol|li|section|header|footer|nav|figure|figcaption|video)\b[^>]*>/gi;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/** Title or summary text as a reader sees it: no HTML tags or comments, no images, links as their words. */
export function inlineText(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(HTML_TAG, '')
    .replace(/!\[[^\]]*\]\((?:[^()]|\([^()]*\))*\)/g, '')
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e])
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A Markdown body as its reader sees it, for titles and summaries (the body sent is unchanged): HTML comments gone
 * (`<!-- omit in toc -->`), HTML headings as Markdown headings (`<h1 align="center">X</h1>` → `# X`), other HTML
 * tags dropped with their words kept (`<p align="center">…`), lines of badges or images only left empty. Line count kept.
 */
export function readableMarkdown(body: string): string {
  const noComments = body.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, ''));
  return noComments
    .split('\n')
    .map((line) => {
      const h = /^\s*<h([1-6])\b[^>]*>(.*?)<\/h\1>\s*$/i.exec(line);
      if (h) return `${'#'.repeat(Number(h[1]))} ${inlineText(h[2])}`;
      if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) return line;
      const kept = line.replace(HTML_TAG, '');
      const words = kept.replace(/\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)|!\[[^\]]*\]\([^)]*\)/g, '').trim();
      return words === '' ? '' : /^#{1,6}\s/.test(kept.trim()) ? kept.trimEnd() : kept;
    })
    .join('\n');
}

/**
 * A decision's summary: the first paragraph of its decision (Nygard's `## Decision`, MADR's `## Decision Outcome`) when
 * that says something on its own, else of its context, else of its body (adr-tools' `Date:` line skipped).
 */
function decisionSummary(body: string): string | undefined {
  const headings = headingsOf(body);
  for (const name of [/^decision( outcome)?$/, /^context( and problem statement)?$/]) {
    const h = headings.find((x) => name.test(normalizeHeading(x.text)));
    const p = h ? firstProse(sectionOf(body, h).text) : undefined;
    if (p && p.length >= 40) return p;
  }
  return firstProse(body.replace(/^\s*Date:.*$/gim, ''));
}

/**
 * The first paragraph that is prose (not a heading, list, table, quote, comment or fenced code), on one line and
 * clipped at a word boundary. Extractive, no model.
 */
export function firstProse(body: string, maxChars = 200): string | undefined {
  let fence: string | undefined;
  let paragraph: string[] = [];
  const prose = () => {
    const text = paragraph.join(' ').replace(/\s+/g, ' ').trim();
    paragraph = [];
    if (!text || /^(#|[-*+]\s|\d+\.\s|\||>|<!--)/.test(text)) return undefined;
    return text.length > maxChars ? text.slice(0, maxChars - 1).replace(/\s+\S*$/, '') + '…' : text;
  };
  for (const line of [...body.split('\n'), '']) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f || fence || line.trim() === '') {
      const found = prose();
      if (found) return found;
      if (f) fence = fence === undefined ? f[1][0] : f[1][0] === fence ? undefined : fence;
      continue;
    }
    paragraph.push(line);
  }
  return undefined;
}

// ---- front matter, leniently -----------------------------------------------------------------------------------

export interface FrontMatter extends Parsed {
  warnings: Warning[];
}

/**
 * Front matter as YAML; when the YAML is malformed (an unfilled MADR template `status: {proposed | …}`, Cursor's bare
 * `globs: *.ts`), its top-level `key: value` lines are read one by one instead, so one bad line does not lose the
 * document. `quiet` drops the warning for formats whose front matter is not YAML by design (Cursor rules).
 */
export function readFrontMatter(text: string, file: string, options: { quiet?: boolean } = {}): FrontMatter {
  try {
    const { warning, ...parsed } = parseFrontMatter(text, file);
    return { ...parsed, warnings: warning ? [{ source: file, line: warning.line, message: warning.message }] : [] };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n').split('\n');
    const end = lines.findIndex((l, i) => i > 0 && l.trimEnd() === '---');
    const warnings: Warning[] = options.quiet ? [] : [{ source: file, line: e.line, column: e.column, message: `${e.message}; front matter read line by line` }];
    if (end < 0) return { data: {}, body: lines.join('\n'), bodyLine: 1, warnings };
    const data: Record<string, unknown> = {};
    let last: string | undefined;
    for (const line of lines.slice(1, end)) {
      const pair = /^([A-Za-z_][\w.-]*)\s*:\s*(.*)$/.exec(line);
      const item = /^\s+-\s+(.*)$/.exec(line);
      if (pair) {
        last = pair[1];
        data[last] = lenientScalar(pair[2]);
      } else if (item && last) {
        const previous = data[last];
        data[last] = [...(Array.isArray(previous) ? previous : []), lenientScalar(item[1])];
      }
    }
    const blank = lines[end + 1]?.trim() === '' ? 1 : 0;
    return { data, body: lines.slice(end + 1 + blank).join('\n'), bodyLine: end + 2 + blank, warnings };
  }
}

/** One value parsed as YAML when it is a scalar or a list; anything else (a `{placeholder}`, a bare `*.ts`) stays text. */
function lenientScalar(raw: string): unknown {
  const text = raw.trim();
  if (text === '') return undefined;
  try {
    const value: unknown = parseYaml(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return text;
    return value;
  } catch {
    return text.replace(/\s+#.*$/, '');
  }
}

/** Text of a front-matter value; a YAML flow map `{some text}` (a template placeholder) comes back as `{some text}`. */
export function valueText(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
    const keys = Object.keys(value);
    return `{${keys.join(', ')}}`;
  }
  return stringValue(value);
}

// ---- sections ---------------------------------------------------------------------------------------------------

export interface Heading {
  level: number;
  text: string;
  /** 0-based line in the body. */
  line: number;
}

/** The ATX headings of a Markdown body, outside fenced code. */
export function headingsOf(body: string): Heading[] {
  const out: Heading[] = [];
  let fence: string | undefined;
  body.split('\n').forEach((line, i) => {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      return;
    }
    if (fence) return;
    const h = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (h) out.push({ level: h[1].length, text: h[2].trim(), line: i });
  });
  return out;
}

/** One section: its heading line through the line before the next heading of the same or a higher level. */
export function sectionOf(body: string, heading: Heading): { text: string; startLine: number; endLine: number } {
  const lines = body.split('\n');
  const next = headingsOf(body).find((h) => h.line > heading.line && h.level <= heading.level);
  const end = next ? next.line : lines.length;
  return { text: lines.slice(heading.line, end).join('\n').trimEnd(), startLine: heading.line, endLine: end - 1 };
}

/** Heading text as people type it: no `#`, no emphasis or code marks, no `1.` numbering, case and spaces folded. */
export function normalizeHeading(text: string): string {
  return text
    .replace(/^#+\s*/, '')
    .replace(/\s+#+\s*$/, '')
    .replace(/[*_`]/g, '')
    .replace(/^\d+(\.\d+)*\.?\s+/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}
