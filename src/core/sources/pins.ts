import { hostFs as fs } from '../host';
import * as path from 'node:path';
import { InputError } from '../errors';
import type { Warning } from '../types';
import { checkInputFile, fsReason } from './scan';
import { resolveInWorkspace } from './guard';
import { skippedPinWarning, validEntries } from './pin-entries';

/** One pinned block as `.context/pins.json` stores it (the editor mirrors its pins there; ctxctl reads them). */
export interface StoredPin {
  id: string;
  source: string;
  /** 1-based, inclusive; absent for a whole-file pin. */
  startLine?: number;
  endLine?: number;
  text: string;
  label?: string;
  /** Why a pinned file could not be read: the pin is reported, never dropped silently. */
  missing?: string;
}

export const PINS_FILE = '.context/pins.json';

/**
 * Read and validate `.context/pins.json`. A file that is not JSON or not a list is one InputError naming the file;
 * a malformed entry is skipped on its own with a warning naming it (index, why), so the good pins still go
 * (pin-entries.ts). A pins file that is a FIFO or a device is never opened (it would block): skipped with a warning.
 */
export function readPinsFile(root: string): { pins: StoredPin[]; warnings: Warning[] } {
  const file = path.join(root, PINS_FILE);
  const kind = checkInputFile(file, { shown: PINS_FILE, label: PINS_FILE, what: 'a pins file (a JSON list)', unused: 'no pins read' }, { root });
  if (kind !== 'file') return { pins: [], warnings: kind === 'absent' ? [] : [kind] };
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    if (e instanceof SyntaxError) throw new InputError(`invalid pins file: ${e.message}`, PINS_FILE);
    throw new InputError(`cannot read pins file: ${fsReason(e)}`, PINS_FILE);
  }
  if (!Array.isArray(raw)) throw new InputError('pins file must hold a JSON list', PINS_FILE);
  const { pins, skipped } = validEntries(raw, validPin);
  return { pins, warnings: skipped.map(skippedPinWarning) };
}

/** A pins.json entry or the reason it is skipped; exported for the per-entry split (pin-entries.ts). */
export function validPin(entry: unknown, i: number): StoredPin {
  const where = `pin ${i + 1}`;
  const bad = (what: string) => new InputError(`${where}: ${what}`, PINS_FILE);
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw bad(`expected an object {"source", "text"}, got ${entry === null ? 'null' : Array.isArray(entry) ? 'a list' : JSON.stringify(entry)}`);
  const p = entry as Record<string, unknown>;
  if (typeof p.source !== 'string' || p.source.trim() === '') throw bad('"source" must be a workspace-relative path');
  if (typeof p.text !== 'string') throw bad('"text" must be a string ("" for a whole-file pin, read from the file)');
  const line = (key: 'startLine' | 'endLine') => {
    const v = p[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw bad(`"${key}" must be a line number (1 or more)`);
    return v;
  };
  const startLine = line('startLine');
  const endLine = line('endLine');
  if (endLine !== undefined && (startLine === undefined || endLine < startLine)) throw bad('"endLine" needs a "startLine" at or before it');
  if (p.label !== undefined && typeof p.label !== 'string') throw bad('"label" must be a string');
  return { id: typeof p.id === 'string' && p.id ? p.id : `pin-${i + 1}`, source: p.source, startLine, endLine, text: p.text, label: p.label as string | undefined };
}

/**
 * Give each pin the text that will be sent: a whole-file pin (no startLine) is read from its file, as the editor
 * does; a pin that cannot be read (outside the workspace, a secret file, gone, not a regular file) says why, so it
 * is reported and never sent as an empty block.
 */
export function resolvePinFiles(root: string, pins: StoredPin[]): StoredPin[] {
  return pins.map((pin) => {
    const refused = pinRefusal(root, pin.source);
    if (refused) return { ...pin, text: '', missing: refused };
    if (pin.startLine !== undefined) return pin;
    try {
      const text = fs.readFileSync(path.join(root, pin.source), 'utf8');
      return { ...pin, text: (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n') };
    } catch (e) {
      return { ...pin, text: '', missing: `cannot read: ${fsReason(e)}` };
    }
  });
}

/** Why a pinned file is not read, through the workspace guard (sources/guard.ts), in the words the pin warning uses. */
function pinRefusal(root: string, source: string): string | undefined {
  const d = resolveInWorkspace(source.replace(/\\/g, '/'), { root });
  if (d.ok) return undefined;
  switch (d.kind) {
    case 'outside':
    case 'empty':
      return 'outside the workspace';
    case 'link-outside':
      return 'a symbolic link leading outside the workspace';
    case 'secret':
      return 'a secret file (by name) is never sent';
    case 'missing':
      return 'the file was moved or deleted';
    case 'special':
      return d.why;
    case 'folder':
      return 'not a regular file: never opened';
    default:
      return d.why;
  }
}
