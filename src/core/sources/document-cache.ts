import type { DocumentFile } from './documents';

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

/** Entries kept (the least recently used go first). */
export const DOCUMENT_CACHE_ENTRIES = 4096;

const cache = new Map<string, DocumentFile>();
export const documentCacheStats = { hits: 0, misses: 0 };

/** The parsed document of this version of the file (`root`, path, size, mtime, decision folder or not), else `parse()`. */
export function cachedDocument(root: string, file: DocumentStamp, isDecision: boolean, parse: () => DocumentFile): DocumentFile {
  if (file.mtimeMs === undefined) return parse();
  const key = [root, file.path, file.size, file.mtimeMs, isDecision].join('\u0000');
  const hit = cache.get(key);
  if (hit) {
    documentCacheStats.hits++;
    cache.delete(key);
    cache.set(key, hit);
    return structuredClone(hit);
  }
  documentCacheStats.misses++;
  const doc = parse();
  cache.set(key, structuredClone(doc));
  if (cache.size > DOCUMENT_CACHE_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return doc;
}

export function clearDocumentCache(): void {
  cache.clear();
  documentCacheStats.hits = 0;
  documentCacheStats.misses = 0;
}
