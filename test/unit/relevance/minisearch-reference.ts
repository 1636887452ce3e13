/** The former relevance index (MiniSearch, BM25+), kept as the reference the forward index must score like. */
import MiniSearch from 'minisearch';
import { processTerm, tokenize } from '../../../src/core/relevance/terms';

/** One searchable file, as the index sees it. */
export interface IndexedDoc {
  path: string;
  title: string;
  headings?: string[];
  summary?: string;
  tags?: string[];
  body: string;
}

export interface TextMatch {
  /** BM25+ score over the weighted fields. */
  score: number;
  /**
   * The task's words that matched in the file's own text (title, headings, summary, tags, body: not its path), as
   * the task wrote them, in the task's order: what "mentions …" may claim.
   */
  words: string[];
}

const FIELDS = ['title', 'headings', 'summary', 'tags', 'path', 'body'] as const;
const BOOST: Record<(typeof FIELDS)[number], number> = { title: 3, headings: 2, summary: 2, tags: 2, path: 1.5, body: 1 };

interface Stored {
  id: string;
  title: string;
  headings: string;
  summary: string;
  tags: string;
  path: string;
  body: string;
}

/**
 * A full-text index of the workspace's documents (MiniSearch, BM25+), built once per workspace and kept up to date
 * file by file: `upsert` on change, `remove` on delete. Tokens are identifier-aware and stemmed on both sides, so
 * `paymentMethod` in a task finds "payment methods" in a document.
 */
export class MiniSearchIndex {
  private readonly search: MiniSearch<Stored>;
  /**
   * The stored form of each document, so a change or a delete is an exact `remove`: MiniSearch's `discard` keeps the
   * old terms' document counts until it vacuums, and scores then drift from a fresh index's (the editor's kept index
   * and the send worker's fresh one ranked the same file differently after an edit).
   */
  private readonly docs = new Map<string, Stored>();

  constructor(docs: IndexedDoc[] = []) {
    this.search = new MiniSearch<Stored>({
      fields: [...FIELDS],
      tokenize,
      processTerm,
      searchOptions: { boost: BOOST, combineWith: 'OR', prefix: false, fuzzy: false },
    });
    for (const d of docs) this.upsert(d);
  }

  get size(): number {
    return this.search.documentCount;
  }

  has(path: string): boolean {
    return this.docs.has(path);
  }

  /** Add or replace one document; a document whose content did not change is left alone. */
  upsert(doc: IndexedDoc): void {
    const stored = toStored(doc);
    // Compared with what is stored: the same text is most often the same string (documents are cached by file
    // version), so the comparison costs nothing and no hash is needed.
    const known = this.docs.get(doc.path);
    if (known && sameContent(known, stored)) return;
    this.remove(doc.path);
    this.search.add(stored);
    this.docs.set(doc.path, stored);
  }

  remove(path: string): void {
    const old = this.docs.get(path);
    if (!old) return;
    this.search.remove(old);
    this.docs.delete(path);
  }

  /** Keep exactly these paths: the ones not listed are removed. */
  retain(paths: Iterable<string>): void {
    const keep = new Set(paths);
    for (const p of [...this.docs.keys()]) if (!keep.has(p)) this.remove(p);
  }

  /** Score every document against the task's words; `weight` boosts some words (identifiers, quoted messages). */
  match(words: string[], weight: (word: string) => number = () => 1): Map<string, TextMatch> {
    const byStem = new Map<string, string>();
    const weights = new Map<string, number>();
    for (const w of words) {
      const t = processTerm(w);
      if (t === null) continue;
      if (!byStem.has(t)) byStem.set(t, w);
      weights.set(t, Math.max(weights.get(t) ?? 0, weight(w)));
    }
    const out = new Map<string, TextMatch>();
    if (byStem.size === 0) return out;
    // The query is already terms (stemmed): MiniSearch must not stem them again (Porter2 is not idempotent:
    // `licens` → `licen` would miss every `license`).
    const results = this.search.search([...byStem.keys()].join(' '), { boostTerm: (term) => weights.get(term) ?? 1, tokenize: (q) => q.split(' '), processTerm: (t) => t });
    const order = [...byStem.keys()];
    for (const r of results) {
      const inText = new Set(Object.entries(r.match as Record<string, string[]>).filter(([, fields]) => fields.some((f) => f !== 'path')).map(([term]) => term));
      out.set(String(r.id), { score: r.score, words: order.filter((t) => inText.has(t)).map((t) => byStem.get(t)!) });
    }
    return out;
  }
}

function toStored(doc: IndexedDoc): Stored {
  return {
    id: doc.path,
    title: doc.title,
    headings: (doc.headings ?? []).join('\n'),
    summary: doc.summary ?? '',
    tags: (doc.tags ?? []).join(' '),
    path: doc.path.replace(/\.[^./]+$/, ''),
    body: doc.body,
  };
}

function sameContent(a: Stored, b: Stored): boolean {
  // id and path come from the key the two were stored under.
  return a.body === b.body && a.title === b.title && a.headings === b.headings && a.summary === b.summary && a.tags === b.tags;
}



