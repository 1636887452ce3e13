import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { assemble } from '../core/chain/assemble';
import { ContextBudgetExceeded, InputError } from '../core/errors';
import { withMaxInput } from '../core/policy';
import { WIRE_SHAPES, type WireShape } from '../core/providers/shape';
import { loadPolicy, loadSnapshot } from '../core/sources/snapshot';

/** ctxctl: the same core, headless. Exit codes: 0 success, 2 bad input or usage, 3 ContextBudgetExceeded. */

const USAGE = `Usage:
  ctxctl preview --workspace DIR --task FILE|TEXT [--policy FILE] [--max-input N] [--component NAME]
                 [--session FILE] [--model M] [--shape openai|anthropic] [--encoding E] [--json] [--out DIR]

  --task       a path (absolute or relative to the current folder), or else literal text
  --json       print exactly one JSON object: {"request", "manifest", "trace"}
  --out DIR    also write request.json (the exact bytes), manifest.json and trace.txt

Exit codes: 0 success, 2 bad input or usage, 3 the mandatory blocks exceed max_input.`;

class UsageError extends Error {}

const PREVIEW_OPTIONS: ParseArgsConfig['options'] = {
  workspace: { type: 'string' },
  task: { type: 'string' },
  policy: { type: 'string' },
  'max-input': { type: 'string' },
  component: { type: 'string' },
  session: { type: 'string' },
  model: { type: 'string' },
  shape: { type: 'string' },
  encoding: { type: 'string' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function parse(argv: string[], options: ParseArgsConfig['options']) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function positiveInt(value: string | boolean | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number, got "${value}"`);
  return n;
}

function preview(argv: string[], stdout: (s: string) => void): number {
  const v = parse(argv, PREVIEW_OPTIONS);
  if (v.help) {
    stdout(USAGE + '\n');
    return 0;
  }
  if (typeof v.workspace !== 'string') throw new UsageError('--workspace DIR is required');
  if (typeof v.task !== 'string' || v.task.trim() === '') throw new UsageError('--task FILE|TEXT is required');
  const shape = (v.shape ?? 'openai') as WireShape;
  if (!WIRE_SHAPES.includes(shape)) throw new UsageError(`--shape must be one of ${WIRE_SHAPES.join(', ')}`);
  const root = path.resolve(v.workspace);
  let policy = loadPolicy(root, v.policy as string | undefined);
  const max = positiveInt(v['max-input'], '--max-input');
  if (max !== undefined) policy = withMaxInput(policy, max);
  const snapshot = loadSnapshot({ root, task: v.task, policy, sessionFile: v.session as string | undefined, component: v.component as string | undefined });
  const result = assemble(snapshot, { model: v.model as string | undefined, shape, encoding: v.encoding as string | undefined });
  if (typeof v.out === 'string') {
    fs.mkdirSync(v.out, { recursive: true });
    fs.writeFileSync(path.join(v.out, 'request.json'), result.serialized);
    fs.writeFileSync(path.join(v.out, 'manifest.json'), JSON.stringify(result.manifest, null, 2) + '\n');
    fs.writeFileSync(path.join(v.out, 'trace.txt'), result.trace);
  }
  if (v.json) stdout(JSON.stringify({ request: result.request, manifest: result.manifest, trace: result.trace }) + '\n');
  else {
    stdout(result.trace);
    if (typeof v.out === 'string') stdout(`\nWrote request.json, manifest.json and trace.txt to ${v.out}\n`);
  }
  return 0;
}

const COMMANDS: Record<string, (argv: string[], stdout: (s: string) => void) => number> = { preview };

/** Run the CLI; returns the exit code. Exported for tests. */
export function run(argv: string[], io = { stdout: (s: string) => void process.stdout.write(s), stderr: (s: string) => void process.stderr.write(s) }): number {
  const [command, ...rest] = argv;
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') {
      io.stdout(USAGE + '\n');
      return command ? 0 : 2;
    }
    const handler = COMMANDS[command];
    if (!handler) throw new UsageError(`unknown command "${command}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
    return handler(rest, io.stdout);
  } catch (e) {
    if (e instanceof ContextBudgetExceeded) {
      io.stderr(`ctxctl: ${e.message}\n`);
      return 3;
    }
    if (e instanceof InputError) {
      io.stderr(`ctxctl: ${e.toString()}\n`);
      return 2;
    }
    if (e instanceof UsageError) {
      io.stderr(`ctxctl: ${e.message}\n\n${USAGE}\n`);
      return 2;
    }
    io.stderr(`ctxctl: internal error: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}

if (require.main === module || process.argv[1]?.endsWith('ctxctl.js') || process.argv[1]?.endsWith('ctxctl')) {
  process.exitCode = run(process.argv.slice(2));
}
