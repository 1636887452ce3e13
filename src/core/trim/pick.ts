import { trimLog } from './log';
import type { Lines, Trimmer } from './types';

/** Choose a trimmer by the policy's format for the file, else by its name. */
export function pickTrimmer(path: string, format: string | undefined, _lines: Lines): { trimmer: Trimmer; format: string } {
  switch (format) {
    case 'log':
    default:
      return { trimmer: trimLog, format: format ?? (/\.log$/i.test(path) ? 'log' : 'log') };
  }
}
