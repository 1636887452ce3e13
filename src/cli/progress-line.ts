import type { Progress } from '../core/host';
import { formatNumber } from '../view-model/format';

/**
 * Where a long preview stands, as one status line on a terminal (stderr): nothing in its first second (a short run
 * prints nothing), then the step and its count, redrawn at most ten times a second, and cleared when the run ends,
 * so what the command prints afterwards starts on a clean line.
 */
export function progressLine(write: (s: string) => void, now: () => number = Date.now): { step(p: Progress): void; done(): void } {
  const start = now();
  let last = -Infinity;
  let shown = false;
  return {
    step(p) {
      const t = now();
      if (t - start < QUIET_MS || t - last < REDRAW_MS) return;
      last = t;
      shown = true;
      write(`\r\x1b[K${progressText(p)}`);
    },
    done() {
      if (shown) write('\r\x1b[K');
      shown = false;
    },
  };
}

/** A run shorter than this shows no status line. */
const QUIET_MS = 1000;
/** The line is redrawn at most this often. */
const REDRAW_MS = 100;

const STEPS: Record<Progress['step'], string> = { scan: 'scanning the workspace', read: 'reading files', rank: 'ranking documents' };

/** `ctxctl: reading files: 40 960 of 100 005…` */
export function progressText(p: Progress): string {
  return `ctxctl: ${STEPS[p.step]}: ${formatNumber(p.done)}${p.total === undefined ? ' files' : ` of ${formatNumber(p.total)}`}…`;
}
