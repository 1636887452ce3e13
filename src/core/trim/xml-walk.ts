import { SaxesParser } from 'saxes';
import type { Lines } from './types';

/**
 * One streaming pass over an XML report with a real parser (saxes: comments, CDATA and entities are the parser's).
 * The handler sees elements open and close, and the text between (CDATA included). A document that is not
 * well-formed is read up to the error, which is returned.
 */
export interface XmlHandler {
  open(name: string, attrs: Record<string, string>): void;
  close(name: string): void;
  text(text: string): void;
}

export function walkXml(lines: Lines, handler: XmlHandler): { lines: number; bad?: string } {
  let bad: string | undefined;
  let total = 0;
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on('error', (e) => {
    bad ??= e.message;
  });
  parser.on('opentag', (tag) => handler.open(localName(tag.name), tag.attributes as Record<string, string>));
  parser.on('closetag', (tag) => handler.close(localName(tag.name)));
  parser.on('text', (t) => handler.text(t));
  parser.on('cdata', (t) => handler.text(t));
  for (const raw of lines()) {
    total++;
    // A byte-order mark before the declaration is no error.
    if (bad === undefined) parser.write(`${total === 1 ? raw.replace(/^\uFEFF/, '') : raw}\n`);
  }
  if (bad === undefined) parser.close();
  return { lines: total, bad };
}

/** `ns:name` → `name`: TRX and some NUnit writers prefix their elements. */
function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

/**
 * The name of the document's first element, from its first lines (comments, the declaration and a byte-order mark
 * skipped); undefined when the text does not start as XML.
 */
export function xmlRoot(lines: Lines): string | undefined {
  let head = '';
  let n = 0;
  for (const line of lines()) {
    head += `${line}\n`;
    if (++n >= 200 || head.length > 16384) break;
    const root = rootOf(head);
    if (root !== undefined) return root || undefined;
  }
  return rootOf(head, true) || undefined;
}

/** '' when the text is not XML; undefined when more text is needed. */
function rootOf(head: string, final = false): string | undefined {
  const s = head.replace(/^\uFEFF/, '').replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '').replace(/<!DOCTYPE[^>]*>/gi, '');
  const t = s.trimStart();
  if (t === '') return final ? '' : undefined;
  if (!t.startsWith('<')) return '';
  if (/^<!--|^<\?/.test(t)) return final ? '' : undefined;
  const m = /^<([A-Za-z_][\w.:-]*)/.exec(t);
  return m ? m[1].replace(/^[\w.-]+:/, '') : '';
}
