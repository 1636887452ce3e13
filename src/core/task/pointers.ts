import type { TaskSignals } from './analyze';

/**
 * Source files the task points at: an incident names an identifier, an error message, a path or
 * the ADR a piece of code violates, rarely the file. A source file is a candidate when its name is one of the
 * task's identifiers (`PaymentController` → PaymentController.java, `retry_policy` → retry_policy.py), or when its
 * text holds one of the task's distinctive identifiers (`MAX_RETRIES`, `GatewayClient.send`), quoted error
 * messages, error codes or ADR references (a comment `// see ADR-0007`). Pure: the reason returned says which.
 */

/** Files that may hold code or configuration worth reading for the task. */
export const CODE_EXTENSIONS = /\.(?:ts|tsx|js|jsx|mjs|cjs|py|java|kt|kts|scala|go|rs|rb|php|cs|fs|vb|c|h|cc|cpp|hpp|m|mm|swift|dart|ex|exs|erl|clj|lua|pl|sh|bash|ps1|sql|yaml|yml|toml|ini|conf|properties|gradle|tf|hcl|xml|json)$/i;

/** At most this many files are read to look for pointers, and files up to this size. */
export const MAX_POINTER_FILES = 5000;
export const MAX_POINTER_BYTES = 256 * 1024;
/** At most this many files are offered for pointers, the most pointed at first. */
export const MAX_POINTED = 20;

/** Whether the task has anything that can point at code. */
export function hasPointers(s: TaskSignals): boolean {
  return distinctive(s).length > 0 || s.quoted.length > 0 || s.codes.length > 0 || s.adrs.some((a) => a.number !== undefined);
}

/** Identifiers specific enough to point at a file by its text: 5 characters or more. */
function distinctive(s: TaskSignals): string[] {
  return s.identifiers.map((i) => i.replace(/\(\)$/, '')).filter((i) => i.length >= 5);
}

const stem = (p: string) => (p.split('/').pop() ?? p).replace(/\.[^.]+$/, '').toLowerCase();
const flat = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** By name only (no text read): the file's name is one of the task's identifiers. */
export function nameReason(path: string, s: TaskSignals): string | undefined {
  const name = flat(stem(path));
  if (name.length < 4) return undefined;
  const hit = s.identifiers.find((i) => {
    const last = i.replace(/\(\)$/, '').split('.');
    return last.some((part) => flat(part) === name);
  });
  return hit ? `its name is the task's identifier ${hit}` : undefined;
}

/** By text: what of the task the file holds (identifiers as whole words, messages, codes, ADR numbers). */
export function textReason(text: string, s: TaskSignals): string | undefined {
  const found: string[] = [];
  for (const id of distinctive(s)) if (new RegExp(`(?<![\\w$])${escape(id)}(?![\\w$])`).test(text)) found.push(id);
  for (const q of s.quoted) if (q.length >= 8 && text.includes(q)) found.push(`"${q}"`);
  for (const c of s.codes) if (new RegExp(`(?<![\\w-])${escape(c)}(?![\\w])`).test(text)) found.push(c);
  for (const a of s.adrs) {
    if (a.number === undefined) continue;
    if (new RegExp(`\\bADR[-_ #]?0*${a.number}\\b`, 'i').test(text)) found.push(`ADR-${String(a.number).padStart(4, '0')}`);
  }
  if (found.length === 0) return undefined;
  const unique = [...new Set(found)];
  return `holds the task's ${unique.slice(0, 4).join(', ')}${unique.length > 4 ? ` and ${unique.length - 4} more` : ''}`;
}

/** How many pointers a reason holds, to keep the most pointed-at files first. */
export function pointerWeight(reason: string): number {
  return reason.startsWith('its name') ? 100 : reason.split(', ').length;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
