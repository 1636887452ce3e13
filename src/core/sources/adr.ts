import { parse as parseYaml } from 'yaml';
import type { Warning } from '../types';
import { stringList, stringValue } from './frontmatter';

/**
 * Architecture decision records in every common format:
 * - MADR 2: bullets under the title (`* Status: accepted`, `* Deciders: …`, `* Date: …`);
 * - MADR 3: front matter `status`, `date`, `deciders`, `consulted`, `informed`; `superseded by [ADR-0005](0005-x.md)`;
 * - MADR 4: front matter `decision-makers`, and `status: "superseded by ADR-0123"`;
 * - Nygard and adr-tools: a `## Status` section; adr-tools writes `Superceded by [2. Title](0002-title.md)` and
 *   `Supercedes …` (both spellings are accepted);
 * - log4brains: bullets under the title (`- Status: …`, `- Date: …`, `- Tags: …`), `yyyymmdd-slug.md` file names.
 * - anywhere: a status written after an emoji (`✅ Accepted`, `⌛️ Superseded [0019](0019-x.md)`), as a table row
 *   (`| Status | Superseded by ADR-3 |`), as a heading (`## Status: Deprecated`, `### Status`), in any case, with the
 *   common synonyms (`Approved`, `Decided` → accepted; `Obsolete` → deprecated; `Replaced by …` → superseded).
 * Statuses: draft, proposed, accepted, rejected, deprecated, superseded, on hold. A record whose status cannot be read
 * is `unknown` ("status unknown"), never accepted.
 */

export const DECISION_STATUSES = ['draft', 'proposed', 'accepted', 'rejected', 'deprecated', 'superseded', 'on hold'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];
/** The status of a record that declares none that can be read: never taken for accepted. */
export const UNKNOWN_STATUS = 'unknown';

/** How a status reads in a reason or the index: `accepted`, `superseded`, `status unknown`. */
export function statusLabel(status: string | undefined): string {
  return status === undefined || status === UNKNOWN_STATUS ? 'status unknown' : status;
}

/** A reference to another decision as written: a link's text and target, or a bare id, number or title. */
export interface DecisionRef {
  text: string;
  target?: string;
}

export interface DecisionMeta {
  id: string;
  number?: number;
  /** Effective status: as declared, or `superseded` once another decision in force declares it supersedes this one. */
  status: string;
  /** The status the file itself declares (`unknown` when it declares none that can be read). */
  declaredStatus: string;
  /** Ids of the decisions that supersede this one (as written until resolved, then the targets' ids). */
  supersededBy: string[];
  /** Ids of the decisions this one supersedes (as written until resolved, then the targets' ids). */
  supersedes: string[];
  /** The references exactly as found, for resolution by id, number, file link or title. */
  refs: { supersededBy: DecisionRef[]; supersedes: DecisionRef[] };
  /** ISO date (YYYY-MM-DD). */
  date?: string;
  deciders?: string[];
  consulted?: string[];
  informed?: string[];
  /** An ADR template (`template.md`, `adr-template.md`): never a decision in force. */
  template?: boolean;
}

export interface ParsedDecision {
  meta: DecisionMeta;
  /** log4brains `- Tags:` bullets. */
  tags?: string[];
  warnings: Warning[];
}

/** Inside an ADR folder: a decision, a template, or a plain document (the folder's README or index). */
export function adrRole(path: string): 'decision' | 'template' | 'document' {
  const base = path.replace(/^.*\//, '').toLowerCase();
  if (/^(readme|index)\.(md|markdown|mdx)$/.test(base)) return 'document';
  if (/^(\d+-)?(adr[-_])?template\b/.test(base)) return 'template';
  return 'decision';
}

/** `0005-x.md` → ADR-0005, `adr-012-x.md` → ADR-012; a log4brains `20200923-x.md` keeps its slug. */
export function idFromPath(path: string): { id: string; number?: number } {
  const base = path.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
  const m = /^(?:adr[-_ ]?)?(\d{1,5})(?=[-_ .]|$)/i.exec(base);
  return m ? { id: `ADR-${m[1]}`, number: Number(m[1]) } : { id: base };
}

const SUPERSEDED_BY = /^(?:superseded|superceded)\s+by\b[:\s]*(.*)$/i;
const SUPERSEDES = /^(?:supersedes|supercedes)\b[:\s]*(.*)$/i;

/** Parse one decision record: status, supersession both ways, date, people; placeholders and bad dates are warnings. */
export function parseDecision(path: string, data: Record<string, unknown>, body: string, bodyLine = 1, template = false): ParsedDecision {
  const warnings: Warning[] = [];
  const warn = (message: string, line?: number) => warnings.push({ source: path, line, message });
  const lines = body.split('\n');
  const fields = preambleFields(lines);
  const section = statusSection(lines);
  const placeholders: string[] = [];

  const fromFile = idFromPath(path);
  const id = stringValue(data.id) ?? fromFile.id;
  const number = fromFile.number ?? numberOf(id);

  const table = tableStatus(lines);
  const written = frontValue(data.status) ?? fields.get('status')?.value ?? section?.status ?? table?.status;
  const statusLine = data.status !== undefined ? undefined : (fields.get('status')?.line ?? section?.line ?? table?.line);
  const parsed = written === undefined ? undefined : parseStatus(written);
  const supersededBy: DecisionRef[] = [...(parsed?.refs ?? [])];
  const supersedes: DecisionRef[] = [...(parsed?.supersedes ?? [])];
  let declared: string = template ? 'draft' : (parsed?.status ?? UNKNOWN_STATUS);
  if (parsed?.placeholder) placeholders.push('status');
  else if (parsed && !parsed.status && !template) warn(`unknown status "${written}": status unknown, not taken for accepted`, at(statusLine, bodyLine));

  for (const key of ['superseded_by', 'superseded-by', 'supersededBy']) supersededBy.push(...refsFromValue(data[key]));
  supersedes.push(...refsFromValue(data.supersedes));
  let fence = false;
  lines.forEach((raw) => {
    if (/^\s{0,3}(```|~~~)/.test(raw)) fence = !fence;
    if (fence) return;
    const line = cleanLine(raw).replace(/^[^\p{L}\p{N}[]+/u, '');
    const by = SUPERSEDED_BY.exec(line);
    const of = SUPERSEDES.exec(line);
    if (by) supersededBy.push(...refsFrom(by[1]));
    else if (of) supersedes.push(...refsFrom(of[1]));
  });
  if (supersededBy.length > 0 && !template && declared !== 'rejected' && declared !== 'deprecated') declared = 'superseded';

  const dateText = frontValue(data.date) ?? fields.get('date')?.value;
  const date = dateText === undefined ? undefined : normalizeDate(dateText);
  if (date === null) placeholders.push('date');
  else if (date === undefined && dateText !== undefined && !template) warn(`date "${dateText}" is neither YYYY-MM-DD nor DD/MM/YYYY: ignored`, at(fields.get('date')?.line, bodyLine));
  const people = (key: string, ...aliases: string[]) => {
    const value = [key, ...aliases].map((k) => frontValue(data[k]) ?? fields.get(k)?.value).find((v) => v !== undefined);
    if (value !== undefined && isPlaceholder(value)) {
      placeholders.push(key);
      return undefined;
    }
    const list = [key, ...aliases].map((k) => data[k]).find(Array.isArray) as unknown[] | undefined;
    return stringList(list ?? value);
  };
  const deciders = people('deciders', 'decision-makers', 'decision_makers');
  const consulted = people('consulted');
  const informed = people('informed');
  const tagText = fields.get('tags')?.value;
  if (tagText !== undefined && isPlaceholder(tagText)) placeholders.push('tags');
  const tags = tagText && !isPlaceholder(tagText) ? tagText.split(/[\s,]+/).filter(Boolean) : undefined;
  if (placeholders.length > 0 && !template) warn(`unfilled template placeholder in ${placeholders.join(', ')}: ignored`, at(statusLine, bodyLine));

  const label = (r: DecisionRef) => r.text;
  return {
    meta: {
      id,
      number,
      status: declared,
      declaredStatus: declared,
      supersededBy: unique(supersededBy.map(label)),
      supersedes: unique(supersedes.map(label)),
      refs: { supersededBy: uniqueRefs(supersededBy), supersedes: uniqueRefs(supersedes) },
      ...(date ? { date } : {}),
      ...(deciders ? { deciders } : {}),
      ...(consulted ? { consulted } : {}),
      ...(informed ? { informed } : {}),
      ...(template ? { template: true } : {}),
    },
    tags,
    warnings,
  };
}

/**
 * A written status → one of the vocabulary, the references of `superseded by …`, or a placeholder. A trailing clause
 * is read too: `Accepted (supersedes ADR 2)`, `Accepted, superseded by ADR-7`.
 */
export function parseStatus(written: string): { status?: DecisionStatus; refs: DecisionRef[]; supersedes: DecisionRef[]; placeholder?: boolean } {
  // Leading emoji, symbols and punctuation go (`✅ Accepted`, `⌛️ Superseded [0019](…)`, `🟢 **Accepted**`); a status
  // written as a link (`[Deprecated](…)`, `[Superseded by ADR-7](0007-x.md)`) reads as its text.
  const bare = unquote(cleanLine(written).replace(/^[^\p{L}\p{N}[{|]+/u, '').replace(/\*\*|__/g, ''));
  const text = unquote(bare.replace(new RegExp(`^\\[((?:${STATUS_WORDS})\\b[^\\]]*)\\]\\([^)]*\\)`, 'i'), '$1'));
  if (isPlaceholder(text)) return { refs: [], supersedes: [], placeholder: true };
  const m = new RegExp(`^(${STATUS_WORDS})\\b`, 'i').exec(text);
  if (!m) return { refs: [], supersedes: [] };
  const word = m[1].toLowerCase().replace(/[ -]+/g, ' ');
  const status = SYNONYMS[word] ?? (word as DecisionStatus);
  const rest = text.slice(m[0].length);
  if (status === 'superseded') {
    const target = rest.replace(/^\s*(by\b)?[:\s]*/i, '');
    return { status, refs: target ? refsFrom(target) : [], supersedes: [] };
  }
  const by = /\bsuper[sc]eded\s+by\b[:\s]*(.+)$/i.exec(rest);
  const of = /\bsuper[sc]edes\b[:\s]*(.+)$/i.exec(rest);
  return { status, refs: by ? refsFrom(by[1]) : [], supersedes: of ? refsFrom(of[1]) : [] };
}

/** The words a status starts with: the vocabulary, its misspellings and its common synonyms. */
const STATUS_WORDS = 'draft|proposed|accepted|rejected|deprecated|superseded|superceded|on[ -]hold|approved|decided|agreed|adopted|obsolete|retired|replaced|declined|withdrawn|wip|work[ -]in[ -]progress|under[ -]review|in[ -]review|pending|proposal';
const SYNONYMS: Record<string, DecisionStatus> = {
  superceded: 'superseded',
  replaced: 'superseded',
  approved: 'accepted',
  decided: 'accepted',
  agreed: 'accepted',
  adopted: 'accepted',
  obsolete: 'deprecated',
  retired: 'deprecated',
  declined: 'rejected',
  withdrawn: 'rejected',
  wip: 'draft',
  'work in progress': 'draft',
  'under review': 'proposed',
  'in review': 'proposed',
  pending: 'proposed',
  proposal: 'proposed',
};

/** Template text left in place: `{…}`, `[…]` that is not a link, `a | b` alternatives, `YYYY-MM-DD`. */
export function isPlaceholder(text: string): boolean {
  const t = text.trim();
  return t.startsWith('{') || (t.startsWith('[') && !/^\[[^\]]*\]\([^)]*\)/.test(t) && !/^\[[^\]]*\d[^\]]*\]/.test(t)) || t.includes('|') || /\bYYYY\b/.test(t) || /^[A-Za-z]+(?:\s*\/\s*[A-Za-z]+){2,}$/.test(t);
}

/** YYYY-MM-DD, or DD/MM/YYYY (also with dots); `null` for a placeholder, `undefined` when unreadable. */
export function normalizeDate(text: string): string | null | undefined {
  if (isPlaceholder(text)) return null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(text.trim());
  const dmy = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(text.trim());
  const [y, mo, d] = iso ? [iso[1], iso[2], iso[3]] : dmy ? [dmy[3], dmy[2], dmy[1]] : [];
  if (!y) return undefined;
  // setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  if (date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return undefined;
  return date.toISOString().slice(0, 10);
}

/** `[text](target)` links, else ids or numbers separated by commas or `and`, else the whole text as a title. */
export function refsFrom(text: string): DecisionRef[] {
  const links = [...text.matchAll(/\[([^\]]+)\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)];
  if (links.length > 0) return links.map((l) => ({ text: l[1].trim(), target: l[2] ?? l[3] }));
  // `[0019]` (a reference-style link or a bare bracketed id) reads as its text.
  const bare = unquote(text.trim().replace(/^\[([^\]]+)\](?:\[[^\]]*\])?/, '$1').replace(/^[(]+/, '').replace(/[.;)]+$/, ''));
  if (!bare) return [];
  const parts = bare.split(/\s*(?:,|;|\band\b)\s*/i).filter(Boolean);
  if (parts.length > 1 && parts.every((p) => numberOf(p) !== undefined && /^(adr[-_ #]?)?\d+$/i.test(p))) return parts.map((p) => ({ text: p }));
  return [{ text: bare }];
}

/** ADR-012, adr-12, ADR 12, #12, 0012 and `12. Title` all carry the number 12. */
export function numberOf(text: string): number | undefined {
  const m = /^(?:adr[-_ #]?|#)?0*(\d{1,5})(?:\b|$)/i.exec(text.trim());
  return m ? Number(m[1]) : undefined;
}

function refsFromValue(value: unknown): DecisionRef[] {
  const list = Array.isArray(value) ? value.map((v) => String(v)) : value === undefined || value === null ? [] : [String(value)];
  return list.flatMap((v) => refsFrom(v));
}

function frontValue(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return `{${Object.keys(value).join(', ')}}`;
  if (Array.isArray(value)) return value.map((v) => String(v)).join(', ');
  return stringValue(value);
}

/** Strip a bullet, emphasis and HTML comments: `* **Status:** Accepted <!-- optional -->` → `Status: Accepted`. */
function cleanLine(line: string): string {
  return line
    .replace(/<!--.*?-->/g, '')
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
    .replace(/\*\*|__/g, '')
    .trim();
}

function unquote(text: string): string {
  return text.replace(/^["'“‘`]+/, '').replace(/["'”’`]+$/, '').trim();
}

/** `Key: value` lines between the title and the first section (MADR 2, log4brains, adr-tools' `Date:`). */
function preambleFields(lines: string[]): Map<string, { value: string; line: number }> {
  const fields = new Map<string, { value: string; line: number }>();
  for (let i = 0; i < lines.length; i++) {
    if (/^\s{0,3}#{2,6}\s/.test(lines[i])) break;
    const m = /^([A-Za-z][A-Za-z _-]{0,30}?)\s*:\s*(.*)$/.exec(cleanLine(lines[i]));
    if (!m || /^\s{0,3}#/.test(lines[i])) continue;
    const key = m[1].trim().toLowerCase().replace(/[ _]+/g, '-');
    if (!fields.has(key) && m[2].trim() !== '') fields.set(key, { value: m[2].trim(), line: i });
  }
  return fields;
}

/** Nygard / adr-tools: the first line of the `## Status` section (or `## Status: Accepted`). */
function statusSection(lines: string[]): { status: string; line: number } | undefined {
  // Indented headings count too: a record pasted with its lines indented still says what its status is.
  const start = lines.findIndex((l) => /^\s*#{2,4}\s+(?:\*\*|__)?Status\b/i.test(l));
  if (start < 0) return undefined;
  const inline = /^\s*#{2,4}\s+(?:\*\*|__)?Status(?:\*\*|__)?\s*[:—–-]\s*(.+?)\s*#*\s*$/i.exec(lines[start]);
  if (inline) return { status: inline[1], line: start };
  for (let i = start + 1; i < lines.length && !/^\s*#{1,6}\s/.test(lines[i]); i++) {
    const line = cleanLine(lines[i]);
    if (line && !SUPERSEDES.test(line)) return { status: line, line: i };
  }
  return undefined;
}

/**
 * A status table row, `| Status | Superseded by ADR-3 |` (also `| **Status** | … |`), outside fenced code; a header
 * row (the line after it is `| --- |`) lists other records and is not this one's status.
 */
function tableStatus(lines: string[]): { status: string; line: number } | undefined {
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s{0,3}(```|~~~)/.test(lines[i])) fence = !fence;
    if (fence) continue;
    const m = /^\s*\|\s*(?:\*\*|__)?status(?:\*\*|__)?\s*:?\s*\|\s*([^|]*?)\s*\|/i.exec(lines[i]);
    if (m && m[1] !== '' && !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1] ?? '')) return { status: m[1], line: i };
  }
  return undefined;
}

const at = (line: number | undefined, bodyLine: number) => (line === undefined ? undefined : bodyLine + line);
const unique = (items: string[]) => [...new Set(items)];

function uniqueRefs(refs: DecisionRef[]): DecisionRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const key = `${r.text}\u0000${r.target ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---- decisions by content ---------------------------------------------------------------------------------------

const DECISION_HEADING = /^(?:decision|decision outcome|the decision|decisions?)$/;
const RECORD_HEADING = /^(?:status|context|context and problem statement|problem statement|consequences|considered options|decision drivers|pros and cons of the options|rationale|alternatives(?: considered)?|options considered|implications|issue|positions|argument)$/;

/**
 * Whether a Markdown file is a decision record by what it says, wherever it lives and whatever its name: a
 * decision section with another record section (`## Context` + `## Decision`, MADR's `## Decision Outcome` +
 * `## Considered Options`); a status section or a status line/row with a context or decision section; a title that
 * says so (`# Architecture Decision Record: …`, `# ADR 12: …`); a file named `adr-NNN-*.md` with a readable status.
 */
export function looksLikeDecision(path: string, data: Record<string, unknown>, body: string): boolean {
  const headings: string[] = [];
  let fence = false;
  for (const line of body.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const h = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (h) headings.push(h[1]);
  }
  const names = headings.map((h) => h.replace(/[*_`]/g, '').replace(/^\d+(\.\d+)*\.?\s+/, '').replace(/\s*:.*$/, '').replace(/\s+/g, ' ').trim().toLowerCase());
  const decision = names.some((n) => DECISION_HEADING.test(n));
  const record = names.filter((n) => RECORD_HEADING.test(n)).length;
  if (decision && record >= 1) return true;
  const lines = body.split('\n');
  const status = frontValue(data.status) ?? preambleFields(lines).get('status')?.value ?? statusSection(lines)?.status ?? tableStatus(lines)?.status;
  const readable = status !== undefined && parseStatus(status).status !== undefined;
  if (readable && (decision || names.some((n) => /^context\b/.test(n)))) return true;
  const title = headings[0] ?? stringValue(data.title) ?? '';
  if (/^(?:architecture\s+decision\s+record|architectural\s+decision\s+record|decision\s+record|adr)\b\s*(?:[-#]?\s*\d+)?\s*[:.–—-]/i.test(title.replace(/[*_`]/g, ''))) return true;
  const base = path.replace(/^.*\//, '');
  return readable && /^(?:adr|ADR)[-_ ]?\d{1,5}\b/.test(base);
}

// ---- where ADRs live ----------------------------------------------------------------------------------------------

/**
 * The ADR folders: the policy's (`doc/adr`, `docs/adr`, `docs/decisions`, `docs/architecture/decisions`), plus the
 * folder named in adr-tools' `.adr-dir` and log4brains' `.log4brains.yml` (`project.adrFolder` and each package's).
 */
export function adrDirectories(policyDirs: string[], config: { adrDir?: string; log4brains?: string }): { dirs: string[]; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const dirs: string[] = [];
  const add = (raw: unknown, source: string) => {
    const dir = String(raw ?? '').trim().replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+$/, '');
    if (!dir || dir === '.') return;
    if (dir.startsWith('/') || dir.split('/').includes('..')) warnings.push({ source, message: `ADR folder "${dir}" is outside the workspace: ignored` });
    else if (!dirs.includes(dir)) dirs.push(dir);
  };
  for (const d of policyDirs) add(d, 'policy');
  if (config.adrDir !== undefined) add(config.adrDir.split('\n')[0], '.adr-dir');
  if (config.log4brains !== undefined) {
    try {
      const project = (parseYaml(config.log4brains) as { project?: { adrFolder?: unknown; packages?: { adrFolder?: unknown }[] } } | null)?.project;
      add(project?.adrFolder, '.log4brains.yml');
      for (const pkg of Array.isArray(project?.packages) ? project.packages : []) add(pkg?.adrFolder, '.log4brains.yml');
    } catch (e) {
      const pos = (e as { linePos?: { line: number; col: number }[] }).linePos?.[0];
      warnings.push({ source: '.log4brains.yml', line: pos?.line, column: pos?.col, message: `invalid YAML: ${(e as Error).message.split('\n')[0]}` });
    }
  }
  return { dirs, warnings };
}
