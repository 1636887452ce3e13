/**
 * Minimal escaping of workspace text inside the envelope. Content reaches the model byte for byte, except where
 * a sequence could open or close an element of the envelope:
 *
 * - a `<` that starts one of the envelope's own tag names (case-insensitive, after optional whitespace and
 *   slashes, ending at a character that cannot continue a name) becomes `&lt;`: `</task>`, `< TASK trust="harness">`,
 *   `<//document` and `<content` at the very end of a text are all neutralised; `<tasks>`, `<div>`, `a < b`,
 *   `&amp;`, `"` and `>` are left alone;
 * - a `<!--` or `<![CDATA[` that is never closed later in the same text becomes `&lt;!--` / `&lt;![CDATA[`, so no
 *   text can leave a comment or CDATA section open over the envelope's next tags.
 *
 * Attribute values (paths, titles, summaries, labels) are short and escaped fully (`& < > "`, newlines).
 */

/**
 * The element names of the envelope (render.ts, replay.ts), and `system`, which no workspace text may pose as.
 * Generic types that reuse one of these names (`List<Task>`) are neutralised too: the price of a model never
 * reading `x<Task trust="harness">` as an element.
 */
export const ENVELOPE_TAGS: readonly string[] = [
  'working-context',
  'rules',
  'pinned',
  'session-summary',
  'available-documents',
  'document',
  'content',
  'tool-output',
  'task',
  'turn',
  'system',
];

const NAME_CHAR = '[A-Za-z0-9_.:-]';
const TAG_OPEN = new RegExp(`<(?=[\\s/]{0,16}(?:${ENVELOPE_TAGS.join('|')})(?!${NAME_CHAR}))`, 'gi');

/** Neutralise every opener of a section (`<!--`, `<![CDATA[`) that has no closer after it in the text. */
function closeSections(text: string, open: RegExp, close: RegExp): string {
  let lastClose = 0;
  for (const m of text.matchAll(close)) lastClose = m.index + m[0].length;
  const head = text.slice(0, lastClose);
  return head + text.slice(lastClose).replace(open, '&lt;');
}

/** Workspace text as it goes inside an envelope element. */
export function escapeContent(text: string): string {
  let out = text.includes('<') ? text.replace(TAG_OPEN, '&lt;') : text;
  if (out.includes('<!--')) out = closeSections(out, /<(?=!--)/g, /-->/g);
  if (/<!\[CDATA\[/i.test(out)) out = closeSections(out, /<(?=!\[CDATA\[)/gi, /\]\]>/g);
  return out;
}

/** Full XML escaping, for attribute values and for prompts that quote text in their own tags. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(text: string): string {
  return escapeXml(text).replace(/"/g, '&quot;').replace(/\r?\n|\r/g, ' ');
}

export function attrs(pairs: Record<string, string | number | undefined>): string {
  return Object.entries(pairs)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');
}
