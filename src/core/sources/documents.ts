import { firstHeading, firstParagraph, parseFrontMatter, stringList, stringValue } from './frontmatter';

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
}

export interface DecisionMeta {
  id: string;
  number?: number;
  status: string;
  supersededBy: string[];
  supersedes: string[];
}

export const DOCUMENT_EXTENSIONS = /\.(md|markdown|mdx)$/i;

/** Read a document's metadata: front matter first, then the first heading and paragraph (extractive). */
export function readDocument(path: string, text: string, isDecision: boolean): DocumentFile {
  const { data, body, bodyLine } = parseFrontMatter(text, path);
  const title = stringValue(data.title) ?? firstHeading(body) ?? path.replace(/^.*\//, '');
  const doc: DocumentFile = {
    path,
    body,
    bodyLine,
    title,
    summary: stringValue(data.summary) ?? stringValue(data.description) ?? firstParagraph(body),
    components: stringList(data.component ?? data.components),
    tags: stringList(data.tags),
    status: stringValue(data.status)?.toLowerCase(),
    priority: typeof data.priority === 'number' ? data.priority : undefined,
  };
  if (isDecision) doc.decision = readDecisionMeta(path, data, body);
  return doc;
}

const STATUS_WORDS = ['draft', 'proposed', 'accepted', 'rejected', 'deprecated', 'superseded'] as const;

/** Decision metadata from front matter, with the id taken from `id` or the file name's number. */
export function readDecisionMeta(path: string, data: Record<string, unknown>, body: string): DecisionMeta {
  const file = path.replace(/^.*\//, '');
  const num = /(?:^|[^0-9])(\d{1,5})(?:[-_ .]|$)/.exec(file);
  const number = num ? Number(num[1]) : undefined;
  const id = stringValue(data.id) ?? (number !== undefined ? `ADR-${String(number).padStart(3, '0')}` : file);
  const rawStatus = (stringValue(data.status) ?? sectionStatus(body) ?? 'accepted').toLowerCase();
  const status = STATUS_WORDS.find((w) => rawStatus.startsWith(w) || (w === 'superseded' && rawStatus.startsWith('superceded'))) ?? rawStatus;
  const supersededBy = stringList(data.superseded_by ?? data['superseded-by']) ?? [];
  const inline = /supers?[ec]eded by[:\s]+\[?([A-Za-z]*-?\d+)/i.exec(rawStatus);
  if (inline && !supersededBy.includes(inline[1])) supersededBy.push(inline[1]);
  const supersedes = stringList(data.supersedes) ?? [];
  return { id, number, status, supersededBy, supersedes };
}

function sectionStatus(body: string): string | undefined {
  const section = /^#{2,3}\s*Status\s*\n+([^\n#]+)/im.exec(body);
  if (section) return section[1].trim();
  const bullet = /^[*-]\s*Status:\s*(.+)$/im.exec(body);
  return bullet ? bullet[1].trim() : undefined;
}
