import type { DocumentFile } from './documents';
import { Lru } from '../lru';

/**
 * Parsed documents by file version: a document whose path, size and mtime are unchanged is not parsed again (front
 * matter, headings, decision record). Lives as long as the process: the assemble worker keeps it warm between
 * calls; the CLI starts empty. Each caller gets its own copy, so nothing it changes leaks into the next call.
 */

export interface DocumentStamp {
  path: string;
  size: number;
  mtimeMs?: number;
}

/**
 * Entries kept (the least recently used go first, a quarter of the bound at a time). Every re-assembly walks all of a
 * workspace's documents in the same order, so a bound below their number keeps none of them: each is evicted before
 * it is asked for again (4 096 entries gave a re-assembly of 10 000 notes no hit at all). The bound is the largest
 * workspace the bench measures, with room; the strings an entry holds are those each call's snapshot holds anyway,
 * and the CLI, which assembles once per process, does not fill it (its kept documents are its cache: snapshot.ts).
 */
export const DOCUMENT_CACHE_ENTRIES = 131072;

const cache = new Lru<string, DocumentFile>(DOCUMENT_CACHE_ENTRIES);
export const documentCacheStats = { hits: 0, misses: 0 };

/** The parsed document of this version of the file (`root`, path, size, mtime, decision folder or not), else `parse()`. */
export function cachedDocument(root: string, file: DocumentStamp, isDecision: boolean, parse: () => DocumentFile): DocumentFile {
  if (file.mtimeMs === undefined) return parse();
  const hit = knownDocument(root, file, isDecision);
  if (hit) return hit;
  const key = keyOf(root, file, isDecision);
  documentCacheStats.misses++;
  const doc = parse();
  // Past the bound, a quarter of it goes at once (lru.ts).
  cache.set(key, copyOf(doc));
  return doc;
}

/** The parsed document of this version of the file when it is cached (a copy), without reading or parsing anything. */
export function knownDocument(root: string, file: DocumentStamp, isDecision: boolean): DocumentFile | undefined {
  if (file.mtimeMs === undefined) return undefined;
  const hit = cache.get(keyOf(root, file, isDecision));
  if (!hit) return undefined;
  documentCacheStats.hits++;
  return copyOf(hit);
}

/** True when this version of the file is cached as a document, in or out of a decision folder: it was text. */
export function knowsDocument(root: string, file: DocumentStamp): boolean {
  return file.mtimeMs !== undefined && (cache.has(keyOf(root, file, false)) || cache.has(keyOf(root, file, true)));
}

function keyOf(root: string, file: DocumentStamp, isDecision: boolean): string {
  return [root, file.path, file.size, file.mtimeMs, isDecision].join('\u0000');
}

/**
 * A copy that shares nothing a caller can change with the original: its lists and warnings copied, a decision record
 * cloned whole. structuredClone of every document was a tenth of a 10 000-note preview.
 */
export function copyOf(doc: DocumentFile): DocumentFile {
  const out = { ...doc };
  if (doc.components) out.components = [...doc.components];
  if (doc.tags) out.tags = [...doc.tags];
  if (doc.warnings) out.warnings = doc.warnings.map((w) => ({ ...w }));
  if (doc.decision) out.decision = structuredClone(doc.decision);
  return out;
}

export function clearDocumentCache(): void {
  cache.clear();
  documentCacheStats.hits = 0;
  documentCacheStats.misses = 0;
}
