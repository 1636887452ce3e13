/** Reading fields of parsed JSON reports, whatever their types turn out to be (json-reports.ts's readers). */

/** A string field, a number field, an array of objects, an object. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const arr = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : []);
export const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
/** Terminal colours some reporters leave in their messages. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
export const plain = (s: string): string => s.replace(COLOUR, '');

/** Split a message into its first line (the message) and the rest (the body). */
export function splitMessage(text: string | undefined): { message?: string; rest: string } {
  const lines = plain(text ?? '').split('\n');
  const at = lines.findIndex((l) => l.trim() !== '');
  if (at < 0) return { rest: '' };
  return { message: lines[at].trim(), rest: lines.slice(at + 1).join('\n') };
}
