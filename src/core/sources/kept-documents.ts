import { holdsSecret } from '../redact/apply';
import { mapStrings } from '../redact/map-strings';
import { HINT } from '../redact/rules';
import type { DocumentFile } from './documents';
import { copyOf } from './document-cache';
import { OverLimit } from '../errors';

/**
 * Parsed documents kept between runs, by file version: a document whose path, size, mtime and decision folder are
 * those it had when it was kept is neither read nor parsed again (nor opened by the scan for its binary check: it was
 * text when it was kept). The CLI keeps them in its cache folder beside the relevance index (src/cli/index-store.ts).
 *
 * Only documents in which the redaction rule set finds no secret are kept: their text fails the rule set's pre-check,
 * or it does not and the redaction finds nothing in any string of the parsed document (what the cache file would
 * hold: body, title, summary, tags, front matter). A document holding a secret is read again on every run, so no
 * secret is ever written to the cache. What was not seen in a run (a deleted file) is not saved again.
 */

/**
 * Where the kept documents live between runs: `load` gives the saved bytes (undefined: none), `save` replaces them
 * (throwing OverLimit, and writing nothing, when they are more than the store could load again).
 */
export interface DocumentStore {
  load(): Uint8Array | undefined;
  save(bytes: Uint8Array): void;
}

/**
 * One kept version: its stamp, and its parsed document: as the JSON bytes it was saved as (parsed when it is asked
 * for, not before), or, kept in this run, as a copy of it as parsed (serialised on save: encoding every document when
 * it was read held a second copy of 100 000 notes' text, in 100 000 buffers, for the whole run).
 */
type Kept = Saved | Copied;

interface Stamped {
  size: number;
  mtimeMs: number;
  decision: boolean;
  /** Parsed by `knows`, handed over by the next `get`. */
  doc?: DocumentFile;
}

/** Loaded from the saved form. */
interface Saved extends Stamped {
  /** The saved line (`[path,size,mtime,decision]\t{document}`) and where its document starts in it. */
  line: Uint8Array;
  at: number;
  copy?: undefined;
}

/** Kept in this run: the document as parsed (copyOf: sharing nothing the chain can change). */
interface Copied extends Stamped {
  copy: DocumentFile;
  line?: undefined;
}

/** The saved form's first line: anything else is no kept document. One line per document follows. */
export const KEPT_FORMAT = 'ctxctl-documents 2';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const NEWLINE = 0x0a;
const TAB = 0x09;

export class KeptDocuments {
  private readonly entries = new Map<string, Kept>();
  private readonly seen = new Set<string>();
  /** True when a save would write something other than what was loaded. */
  changed = false;

  /** The document kept for this version of the file, if there is one: parsed from its saved JSON, the caller's own. */
  get(path: string, size: number, mtimeMs: number, decision: boolean): DocumentFile | undefined {
    const k = this.version(path, size, mtimeMs);
    if (!k || k.decision !== decision) return undefined;
    const doc = k.doc ?? this.parsed(path, k);
    k.doc = undefined;
    if (doc) this.seen.add(path);
    return doc;
  }

  /**
   * True when this version of the file was kept as a (text) document, whatever its decision folder: the scan need not
   * open it for its binary check. Its saved document is parsed here (once): one that does not parse is not known.
   */
  knows(path: string, size: number, mtimeMs: number): boolean {
    const k = this.version(path, size, mtimeMs);
    if (k) k.doc ??= this.parsed(path, k);
    return k?.doc !== undefined;
  }

  private version(path: string, size: number, mtimeMs: number): Kept | undefined {
    const k = this.entries.get(path);
    return k && k.size === size && k.mtimeMs === mtimeMs ? k : undefined;
  }

  /** The saved document of `k`; one that does not parse as a document of `path` is forgotten. */
  private parsed(path: string, k: Kept): DocumentFile | undefined {
    if (k.copy) return copyOf(k.copy);
    let doc: unknown;
    try {
      doc = JSON.parse(decoder.decode(k.line.subarray(k.at)));
    } catch {
      doc = undefined;
    }
    if (isDocument(doc, path)) return doc;
    this.entries.delete(path);
    this.changed = true;
    return undefined;
  }

  /** Keep `doc`, parsed from `text`, unless `secretIn(doc, text)` (documentHoldsSecret); a version kept before is replaced. */
  put(path: string, size: number, mtimeMs: number, decision: boolean, doc: DocumentFile, text: string, secretIn: (doc: DocumentFile, text: string) => boolean): void {
    if (secretIn(doc, text)) {
      if (this.entries.delete(path)) this.changed = true;
      return;
    }
    // Copied now, as parsed: what the chain does to the document afterwards is not kept.
    this.entries.set(path, { size, mtimeMs, decision, copy: copyOf(doc) });
    this.seen.add(path);
    this.changed = true;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The documents seen in this run, as bytes: the format line, then one line per document. */
  serialize(): Uint8Array {
    const parts: Uint8Array[] = [encoder.encode(KEPT_FORMAT + '\n')];
    let length = parts[0].length;
    for (const [path, k] of this.entries) {
      if (!this.seen.has(path)) continue;
      const line = k.line ?? encoder.encode(`${JSON.stringify([path, k.size, k.mtimeMs, k.decision])}\t${JSON.stringify(k.copy)}\n`);
      parts.push(line);
      length += line.length;
    }
    const out = new Uint8Array(length);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /** The documents saved in `bytes`; an empty set when they are not of this format (the caller reads the files). */
  static restore(bytes: Uint8Array | undefined): KeptDocuments {
    const kept = new KeptDocuments();
    if (bytes === undefined) return kept;
    const magic = encoder.encode(KEPT_FORMAT + '\n');
    if (bytes.length < magic.length || magic.some((b, i) => bytes[i] !== b)) {
      kept.changed = true;
      return kept;
    }
    // Lines are views of the bytes read (no copy: a 100 000-document file is ~27 MB).
    const own = bytes;
    for (let start = magic.length; start < own.length; ) {
      let end = own.indexOf(NEWLINE, start);
      if (end === -1) end = own.length;
      const line = own.subarray(start, end + 1);
      start = end + 1;
      const tab = line.indexOf(TAB);
      let head: unknown;
      try {
        head = tab === -1 ? undefined : JSON.parse(decoder.decode(line.subarray(0, tab)));
      } catch {
        head = undefined;
      }
      if (!Array.isArray(head) || head.length !== 4) continue;
      const [path, size, mtimeMs, decision] = head as unknown[];
      if (typeof path !== 'string' || typeof size !== 'number' || typeof mtimeMs !== 'number' || typeof decision !== 'boolean') continue;
      kept.entries.set(path, { size, mtimeMs, decision, line, at: tab + 1 });
    }
    return kept;
  }

  /** Forget what this run did not see (after a save, which left it out). */
  dropUnseen(): void {
    for (const path of [...this.entries.keys()]) if (!this.seen.has(path)) this.entries.delete(path);
  }

  /** True when some kept entry was not seen in this run (a save would drop it). */
  get stale(): boolean {
    for (const path of this.entries.keys()) if (!this.seen.has(path)) return true;
    return false;
  }
}

function isDocument(x: unknown, path: string): x is DocumentFile {
  const d = x as DocumentFile;
  return typeof d === 'object' && d !== null && d.path === path && typeof d.body === 'string' && typeof d.bodyLine === 'number' && typeof d.title === 'string';
}

/**
 * True when `doc`, parsed from `text`, holds a secret the redaction rule set finds in one of its strings (keys
 * included): such a document is never kept. A text that fails the rule set's pre-check holds none, unscanned; most
 * that pass it only name a credential word (`keyboard`, `tokens`, `password reset`): in real documentation half to
 * four fifths of the files (a text without a secret is then kept, read once).
 */
export function documentHoldsSecret(doc: DocumentFile, text: string): boolean {
  if (!HINT.test(text)) return false;
  let found = false;
  mapStrings(doc, (s) => {
    found ||= holdsSecret(s);
    return s;
  });
  return found;
}

/**
 * Open the kept documents of `store`: none when it cannot be read, with the reason in `warning` (a bad cache costs a
 * re-read, never a failure).
 */
export function openDocuments(store: DocumentStore): { documents: KeptDocuments; warning?: string } {
  try {
    return { documents: KeptDocuments.restore(store.load()) };
  } catch (e) {
    const documents = new KeptDocuments();
    documents.changed = true;
    return { documents, warning: `the kept parsed documents cannot be read (${(e as Error).message}): read again` };
  }
}

/** Why the kept documents were not saved: over the size a cache file may hold (`overLimit`), or the write failed. */
export interface Unsaved {
  message: string;
  overLimit: boolean;
}

/** Save the kept documents when they changed; why they could not be saved, if they could not. */
export function saveDocuments(kept: KeptDocuments, store: DocumentStore): Unsaved | undefined {
  if (!kept.changed && !kept.stale) return undefined;
  try {
    store.save(kept.serialize());
    kept.changed = false;
    kept.dropUnseen();
    return undefined;
  } catch (e) {
    return { message: `the parsed documents could not be kept for the next run (${(e as Error).message})`, overLimit: e instanceof OverLimit };
  }
}
