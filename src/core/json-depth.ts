/**
 * How deep a JSON (or JSON-with-comments) text nests, found in one pass without building anything, so a parser that
 * recurses (jsonc-parser's tree, zod's schemas) never meets a text nested deeper than it can take. Strings and
 * comments are skipped; the text need not be valid (the parser reports that afterwards).
 */
export const MAX_JSON_DEPTH = 256;

/** The offset of the first bracket that opens a level deeper than `limit`, or -1 when the text stays within it. */
export function tooDeepAt(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return i;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) depth--;
    }
  }
  return -1;
}
