import { hostFs as fs } from '../host';
import { estimateTokensFromBytes } from '../tokens';
import { linesAt } from './byte-lines';
import { clipLine, MARK, own, Ring } from './lines';
import { scanErrors } from './log-scan';
import { firstThatFits, type Lines, type TrimOptions, type TrimOutput } from './types';

/**
 * Command output (seed 000's cap_command_output): the head and the tail, with a marker in between saying how many
 * lines and about how many tokens were removed. One streaming pass; only the head and the tail are held. A file
 * the log scan read from its bytes is not read again: its head and tail are read by line index (byte-lines.ts).
 */
export function trimCommand(lines: Lines, options: TrimOptions, format = 'command'): TrimOutput {
  const { head, tail: tailLines, total, size, measure } = (lines.file !== undefined ? fromFile(lines, options) : undefined) ?? streamed(lines, options);
  const clip = options.maxLineChars;
  const shape = (h: number, t: number, clipAt: number) => (): string[] => {
    const kept = [...head.slice(0, h), ...tailLines.slice(tailLines.length - t)];
    const missing = total - kept.length;
    const keptSize = kept.reduce((n, l) => n + measure(l), 0);
    const body = head.slice(0, h).map((l) => clipLine(l, clipAt));
    if (missing > 0) body.push(`${MARK}${missing} lines (~${estimateTokensFromBytes(Math.max(0, size - keptSize), options.reference)} tokens) removed …`);
    body.push(...tailLines.slice(tailLines.length - t).map((l) => clipLine(l, clipAt)));
    return body;
  };
  const h = head.length;
  const t = tailLines.length;
  const kept = firstThatFits(
    [
      shape(h, t, clip),
      shape(Math.ceil(h / 2), Math.ceil(t / 2), clip),
      shape(Math.ceil(h / 4), Math.ceil(t / 4), Math.ceil(clip / 2)),
      shape(Math.min(h, 5), Math.min(t, 5), Math.ceil(clip / 2)),
      shape(Math.min(h, 2), Math.min(t, 2), Math.ceil(clip / 3)),
    ],
    options,
  );
  const retained = kept.filter((l) => !l.startsWith(MARK)).length;
  const removed = total - retained;
  return {
    text: kept.join('\n'),
    originalLines: total,
    retainedLines: retained,
    format,
    note: removed > 0 ? `head and tail kept, ${removed} lines in between removed` : 'kept whole (long lines clipped)',
  };
}

/** What the head-and-tail trim needs: the kept ends, the line count, and the size they are measured against. */
interface Ends {
  head: string[];
  tail: string[];
  total: number;
  /** The whole input's size, in the unit `measure` gives a kept line. */
  size: number;
  measure: (line: string) => number;
}

function streamed(lines: Lines, options: TrimOptions): Ends {
  const head: string[] = [];
  const tail = new Ring<string>(options.tailLines);
  let total = 0;
  let chars = 0;
  for (const line of lines()) {
    if (head.length < options.headLines) head.push(own(line));
    else tail.push(own(line));
    chars += line.length + 1;
    total++;
  }
  // A file's removed part is measured in bytes, whichever way it was read; other text in characters.
  if (lines.file !== undefined) return { head, tail: tail.values(), total, size: fileSize(lines.file), measure: bytesOf };
  return { head, tail: tail.values(), total, size: chars, measure: (l) => l.length + 1 };
}

/** The ends of a file the log scan indexed, read by line index; undefined when it was not indexed or has changed. */
function fromFile(lines: Lines, options: TrimOptions): Ends | undefined {
  const index = scanErrors(lines).file;
  if (!index) return undefined;
  const { total } = index;
  const h = Math.min(options.headLines, total);
  const t = Math.max(0, Math.min(options.tailLines, total - h));
  const read = linesAt(index, [...Array.from({ length: h }, (_, i) => i), ...Array.from({ length: t }, (_, i) => total - t + i)]);
  if (!read) return undefined;
  const at = (i: number) => read.get(i) ?? '';
  return { head: Array.from({ length: h }, (_, i) => at(i)), tail: Array.from({ length: t }, (_, i) => at(total - t + i)), total, size: index.size, measure: bytesOf };
}

const bytesOf = (line: string) => Buffer.byteLength(line) + 1;

function fileSize(abs: string): number {
  try {
    return fs.statSync(abs).size;
  } catch {
    return 0;
  }
}
