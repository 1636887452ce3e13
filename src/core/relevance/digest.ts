import { ByText, TEXT_MEMO_ENTRIES } from './by-text';

// The digests that key a relevance index's entries (index.ts) and a kept index's rules (persist.ts). A kept index on
// disk holds them: a change here changes every kept entry's key (test/unit/relevance/by-text.test.ts pins values).

/** What of a document is indexed (index.ts's IndexedDoc, written out here: index.ts imports this file). */
interface IndexedFields {
  path: string;
  title: string;
  headings?: readonly string[];
  summary?: string;
  tags?: readonly string[];
  body: string;
}

/** The indexed text of a document, field by field in FIELDS order (index.ts's FIELDS). */
export function fieldTexts(doc: IndexedFields): string[] {
  return [doc.title, (doc.headings ?? []).join('\n'), doc.summary ?? '', (doc.tags ?? []).join(' '), doc.path.replace(/\.[^./]+$/, ''), doc.body];
}

/**
 * digestOf(fields), the body's part found by the body's text: the fields before it are short and digested each time,
 * and the state after them seeds the body's digest, so the memo's key is the body and that state (the same digest,
 * with no second function).
 */
export const bodyDigests = new ByText<Map<string, [number, number]>>(TEXT_MEMO_ENTRIES);
export function fieldsDigest(fields: string[]): [number, number] {
  const head = digestState(fields.slice(0, -1), 0x811c9dc5, 0x01000193);
  const seed = `${head[0]}:${head[1]}`;
  const bySeed = bodyDigests.get(fields[fields.length - 1], () => new Map());
  let d = bySeed.get(seed);
  if (!d) {
    d = digestState([fields[fields.length - 1]], head[0], head[1]);
    if (bySeed.size >= 4) bySeed.clear();
    bySeed.set(seed, d);
  }
  return [d[0] >>> 0, d[1] >>> 0];
}

/** Two 32-bit FNV-1a-style digests of the fields (with their boundaries), different multipliers: 64 bits in all. */
export function digestOf(fields: string[]): [number, number] {
  const [a, b] = digestState(fields, 0x811c9dc5, 0x01000193);
  return [a >>> 0, b >>> 0];
}

/** digestOf's running state after `fields`, from `a` and `b`, made unsigned. */
function digestState(fields: string[], a: number, b: number): [number, number] {
  // The seeds as 32-bit integers, as `^` reads them: an unsigned seed over 2^31 (fieldsDigest's is the state after the
  // short fields) is a double, and optimised code that had only seen integers there was thrown away at nearly every
  // call (V8 "lost precision": 393 deoptimisations in 21 re-assemblies at 400 documents). Same digests.
  a |= 0;
  b |= 0;
  for (const text of fields) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    a = Math.imul(a ^ 0x1f, 0x01000193);
    b = Math.imul(b ^ 0x1f, 0x5bd1e995);
  }
  return [a >>> 0, b >>> 0];
}
