import * as path from 'node:path';
import { InputError } from '../core/errors';
import { parseCommand } from './args';
import { inspectFile, type Inspection } from '../core/inspect';

/** `ctxctl inspect`: progressive inspection of an offloaded (or any large) file, streamed. */

export const INSPECT_USAGE = `ctxctl inspect PATH [--head N] [--grep RE [--context N] [--ignore-case] [--max-matches N]] [--count] [--shape]
                 (no option: --head 20; several options run in this order: count, shape, head, grep)`;

function whole(value: string | boolean | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new InputError(`inspect: ${flag} must be a whole number ≥ ${min}, got "${value}" (usage: ${INSPECT_USAGE})`);
  return n;
}

export function inspectCommand(argv: string[], stdout: (s: string) => void): number {
  const { values: v, positionals } = parseCommand('inspect', INSPECT_USAGE, argv, {
        head: { type: 'string' },
        grep: { type: 'string' },
        context: { type: 'string', short: 'C' },
        'ignore-case': { type: 'boolean', short: 'i' },
        'max-matches': { type: 'string' },
        count: { type: 'boolean' },
        shape: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      });
  if (v.help) {
    stdout(`Usage:\n  ${INSPECT_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new InputError(`inspect: give exactly one PATH (usage: ${INSPECT_USAGE})`);
  const abs = path.resolve(positionals[0]);
  const requests: Inspection[] = [];
  if (v.count) requests.push({ op: 'count' });
  if (v.shape) requests.push({ op: 'shape' });
  const head = whole(v.head, '--head', 1);
  if (head !== undefined) requests.push({ op: 'head', lines: head });
  if (typeof v.grep === 'string') {
    requests.push({ op: 'grep', pattern: v.grep, context: whole(v.context, '--context', 0), maxMatches: whole(v['max-matches'], '--max-matches', 1), ignoreCase: v['ignore-case'] === true });
  } else if (v.context !== undefined || v['max-matches'] !== undefined || v['ignore-case']) {
    throw new InputError(`inspect: --context, --max-matches and --ignore-case go with --grep (usage: ${INSPECT_USAGE})`);
  }
  if (requests.length === 0) requests.push({ op: 'head', lines: 20 });
  const sections = requests.map((r) => {
    const body = inspectFile(abs, r);
    return requests.length > 1 ? `== ${r.op}\n${body}` : body;
  });
  stdout(sections.join('\n\n') + '\n');
  return 0;
}
