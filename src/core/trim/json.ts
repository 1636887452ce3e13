import { trimCommand } from './command';
import { readShape, renderShape, type JsonShape } from './json-shape';
import { JsonSyntaxError } from './json-stream';
import { clipLine } from './lines';
import { firstThatFits, type Lines, type TrimOptions, type TrimOutput } from './types';

/**
 * JSON payloads (an API response, a JSON Lines dump): keep the shape (keys, types, array lengths) and the first
 * records of the main array. One streaming pass; what is held is the shape and a few capped records. Invalid JSON
 * falls back to head and tail, saying why.
 */
export function trimJson(lines: Lines, options: TrimOptions): TrimOutput {
  let shape: JsonShape;
  let total = 0;
  let chars = 0;
  const counted = function* () {
    for (const line of lines()) {
      total++;
      chars += line.length + 1;
      yield line;
    }
  };
  try {
    shape = readShape(counted(), Math.max(options.jsonRecords, 1));
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const out = trimCommand(lines, options, 'json');
    return { ...out, note: `not valid JSON (${e.message}): ${out.note}` };
  }
  const main = shape.main;
  const what = shape.documents > 1 ? `JSON Lines, ${shape.documents} values` : 'JSON';
  const header = `${what}, ${total} lines, ${Math.max(0, chars - 1)} characters${main ? `; ${main.length} records in ${main.path}` : ''}`;
  const candidate = (depth: number, records: number, clip: number) => (): string[] => {
    const out = [header, 'shape:', ...renderShape(shape.root, depth).split('\n').map((l) => clipLine(l, clip))];
    if (main && records > 0) {
      out.push(`first ${Math.min(records, main.records.length)} of ${main.length} records (${main.path}):`);
      for (const r of main.records.slice(0, records)) out.push(clipLine(JSON.stringify(r), clip * 2));
    }
    return out;
  };
  const k = options.jsonRecords;
  const c = options.maxLineChars;
  const kept = firstThatFits(
    [
      candidate(8, k, c),
      candidate(8, Math.min(k, 1), c),
      candidate(4, Math.min(k, 1), Math.ceil(c / 2)),
      candidate(3, 0, Math.ceil(c / 2)),
      candidate(2, 0, Math.ceil(c / 2)),
      candidate(1, 0, Math.ceil(c / 2)),
    ],
    options,
  );
  const at = kept.findIndex((l) => /^first \d+ of \d+ records/.test(l));
  const recordsKept = at < 0 ? 0 : kept.slice(at + 1).filter((l) => !l.startsWith('… ')).length;
  return {
    text: kept.join('\n'),
    originalLines: total,
    retainedLines: Math.min(total, recordsKept),
    format: 'json',
    note: `shape kept (keys, types, array lengths)${main ? ` with the first ${Math.min(k, main.records.length)} of ${main.length} records of ${main.path}` : ''}`,
  };
}
