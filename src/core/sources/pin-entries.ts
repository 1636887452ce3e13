import { InputError } from '../errors';
import type { Warning } from '../types';

/**
 * The entries of `.context/pins.json` one by one: a malformed entry is skipped and named (its 1-based index and
 * why), the others are kept in order. Pure: the validator is passed in and throws InputError for a bad entry.
 */

export interface SkippedEntry {
  /** 1-based, as the editor and the messages count pins. */
  index: number;
  reason: string;
}

export function validEntries<T>(raw: unknown[], valid: (entry: unknown, i: number) => T): { pins: T[]; skipped: SkippedEntry[] } {
  const pins: T[] = [];
  const skipped: SkippedEntry[] = [];
  raw.forEach((entry, i) => {
    try {
      pins.push(valid(entry, i));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      skipped.push({ index: i + 1, reason: e.message.replace(/^pin \d+: /, '') });
    }
  });
  return { pins, skipped };
}

/** The warning for a skipped entry: source `.context/pins.json`, message `pin 2 skipped: "text" must be a string …`. */
export function skippedPinWarning(s: SkippedEntry): Warning {
  return { source: '.context/pins.json', message: `pin ${s.index} skipped: ${s.reason}` };
}

/** The skipped entries among a snapshot's warnings, for the hook's note and MCP's pinned resource. */
export function skippedPinEntries(warnings: Warning[]): string[] {
  return warnings.filter((w) => w.source === '.context/pins.json' && /^pin \d+ skipped: /.test(w.message)).map((w) => w.message);
}
