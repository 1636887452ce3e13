import { estimateTokensFromBytes as estimateTokensFromChars } from '../tokens';
import { clipLine, MARK, own, Ring } from './lines';
import { firstThatFits, type Lines, type TrimOptions, type TrimOutput } from './types';

/**
 * Command output (seed 000's cap_command_output): the head and the tail, with a marker in between saying how many
 * lines and about how many tokens were removed. One streaming pass; only the head and the tail are held.
 */
export function trimCommand(lines: Lines, options: TrimOptions, format = 'command'): TrimOutput {
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
  const tailLines = tail.values();
  const clip = options.maxLineChars;
  const shape = (h: number, t: number, clipAt: number) => (): string[] => {
    const kept = [...head.slice(0, h), ...tailLines.slice(tailLines.length - t)];
    const missing = total - kept.length;
    const keptChars = kept.reduce((n, l) => n + l.length + 1, 0);
    const body = head.slice(0, h).map((l) => clipLine(l, clipAt));
    if (missing > 0) body.push(`${MARK}${missing} lines (~${estimateTokensFromChars(chars - keptChars)} tokens) removed …`);
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
