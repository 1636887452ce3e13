import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MODEL } from '../core/chain/assemble';
import { CHECKS_FILE, parseChecks, type CheckCase } from '../core/compare/checks-file';
import { compareJson } from '../core/compare/report';
import { variantNames } from '../core/compare/run';
import { renderCompare } from '../core/compare/table';
import { scrub } from '../core/providers/errors';
import { writeRecord } from '../core/report/record';
import { ContextEngine } from '../core/engine';
import { diskHost } from '../host/disk';
import { displayPath } from '../core/sources/snapshot';
import { InputError } from '../core/errors';
import { parseToolResultArg } from '../core/offload/results';
import { providerFactory } from './provider-flags';
import type { SendIo } from './send';

/** `ctxctl compare`: the same task under two or more policies, from the same state; dry run or sent `--runs` times. */

export const COMPARE_USAGE = `  ctxctl compare --workspace DIR --task FILE|TEXT --policy A.yaml --policy B.yaml [--policy C.yaml]...
                 [--runs N] [--provider dry-run|openai|anthropic --model M --base-url URL] [--checks FILE]
                 [--tool-result NAME=FILE]... [--session FILE] [--component NAME] [--encoding E] [--max-steps N] [--timeout S]
                 [--json] [--out DIR]`;

const HELP = `Usage:
${COMPARE_USAGE}

  Every variant gets the same task, model, settings, session, pins and tool results (--tool-result, as in preview),
  and an empty offload store of its own (variants/NAME/offload/ with --out, else a temporary folder, removed after).
  Dry run (default): compares the requests (tokens per zone, blocks, evidence checks, the decisions diff).
  --provider   also sends each variant --runs times (default 1) and records the answer, the tokens the provider
               reports (input, output, cached), latency, cost (dated price table) and the answer checks
  --checks     the cases whose expectations are checked in each variant (default: DIR/${CHECKS_FILE} if present);
               compare sets the task and the policy, so a case's own task and policy are not used here
  --json       exactly one object: {"variants": [{policy, manifest, runs, checks}], "diff"}
  --out DIR    also compare.md, compare.json and variants/NAME/{request.json,manifest.json,trace.txt,runs/N/,offload/}

Exit codes: 0 compared (checks may fail: ctxctl check gates on them), 2 bad input, 3 a variant's mandatory blocks
            exceed max_input, 4 a run failed at the provider.`;

class CompareUsage extends Error {}

const STRINGS = ['workspace', 'task', 'runs', 'provider', 'model', 'base-url', 'checks', 'out', 'session', 'component', 'encoding', 'max-steps', 'timeout'];

function positive(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new CompareUsage(`${flag} must be a positive whole number, got "${value}"`);
  return n;
}

export async function compareCommand(argv: string[], io: SendIo): Promise<number> {
  try {
    let v: Record<string, string | string[] | boolean | undefined>;
    try {
      v = parseArgs({
        args: argv,
        strict: true,
        options: {
          ...Object.fromEntries(STRINGS.map((k) => [k, { type: 'string' as const }])),
          policy: { type: 'string', multiple: true },
          'tool-result': { type: 'string', multiple: true },
          json: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      }).values;
    } catch (e) {
      throw new CompareUsage((e as Error).message);
    }
    if (v.help) {
      io.stdout(HELP + '\n');
      return 0;
    }
    return await compareWith(v, io);
  } catch (e) {
    if (!(e instanceof CompareUsage)) throw e;
    io.stderr(`ctxctl: ${e.message}\n\n${HELP}\n`);
    return 2;
  }
}

async function compareWith(v: Record<string, string | string[] | boolean | undefined>, io: SendIo): Promise<number> {
  const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const workspace = str('workspace');
  const task = str('task');
  if (!workspace) throw new CompareUsage('--workspace DIR is required');
  if (!task || task.trim() === '') throw new CompareUsage('--task FILE|TEXT is required');
  const policies = (v.policy as string[] | undefined) ?? [];
  if (policies.length < 2) throw new CompareUsage(`--policy is needed at least twice (one per variant), got ${policies.length}`);
  const runs = positive(v.runs, '--runs') ?? 1;
  const providerId = str('provider') ?? 'dry-run';
  if (v.runs !== undefined && providerId === 'dry-run') throw new CompareUsage('--runs needs a provider (--provider openai|anthropic): a dry run sends nothing');
  const env = io.env ?? process.env;
  const factory = providerFactory({ provider: providerId, model: str('model'), baseUrl: str('base-url'), timeoutSeconds: positive(v.timeout, '--timeout') }, env, io.clock);
  if (typeof factory === 'string') throw new CompareUsage(factory);
  const root = path.resolve(workspace);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new InputError('workspace folder not found', workspace);
  const variants = variantNames(policies.map((p) => path.resolve(p)));
  for (const p of variants) if (!fs.existsSync(p.file)) throw new InputError('policy file not found', displayPath(root, p.file));
  const cases = loadCases(root, str('checks'));
  const out = str('out') ? path.resolve(str('out')!) : undefined;
  const scratch = out ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-compare-'));
  const offloadDir = (i: number, run: number) =>
    out ? path.join(out, 'variants', variants[i].name, 'offload', run === 0 ? 'preview' : `run-${run}`) : path.join(scratch!, String(i), String(run));
  const clean = (s: string) => scrub(s, [factory.apiKey]);
  try {
    const result = await new ContextEngine(diskHost, root).compare({
      task,
      variants,
      sessionFile: str('session'),
      component: str('component'),
      toolResults: ((v['tool-result'] as string[] | undefined) ?? []).map(parseToolResultArg),
      model: str('model') ?? DEFAULT_MODEL,
      encoding: str('encoding'),
      provider: factory.make,
      runs,
      maxSteps: positive(v['max-steps'], '--max-steps'),
      cases,
      offloadDir,
      clock: io.clock,
      signal: io.signal,
      onNotice: (m) => io.stderr(`ctxctl: ${clean(m)}\n`),
    });
    const table = renderCompare(result);
    const json = compareJson(result);
    if (out) {
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(path.join(out, 'compare.md'), clean(`# Context policies compared\n\n\`\`\`\n${table}\`\`\`\n`));
      fs.writeFileSync(path.join(out, 'compare.json'), clean(JSON.stringify(json, null, 2)) + '\n');
      for (const variant of result.variants) {
        const dir = path.join(out, 'variants', variant.name);
        writeRecord(dir, { request: variant.assembly.serialized, manifest: variant.manifest, trace: variant.assembly.trace }, clean);
        variant.outcomes.forEach((o, i) => {
          const last = o.steps[o.steps.length - 1];
          writeRecord(path.join(dir, 'runs', String(i + 1)), { request: last?.assembly.serialized, manifest: o.manifest, trace: o.trace }, clean);
          fs.writeFileSync(path.join(dir, 'runs', String(i + 1), 'answer.txt'), clean(o.answer));
        });
      }
    }
    if (v.json) io.stdout(clean(JSON.stringify(json)) + '\n');
    else {
      io.stdout(clean(table));
      if (out) io.stdout(`\nWrote compare.md, compare.json and variants/{${result.variants.map((x) => x.name).join(',')}}/ to ${out}\n`);
    }
    const failed = result.variants.flatMap((x) => x.runs.filter((r) => r.error).map((r) => `${x.name} run ${r.run}: ${r.error}`));
    for (const f of failed) io.stderr(`ctxctl: ${clean(f)}\n`);
    return failed.length ? 4 : 0;
  } finally {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The checks file given, else the workspace's own when it has one, else no case. */
export function loadCases(root: string, file: string | undefined): CheckCase[] {
  const abs = file ? path.resolve(file) : path.join(root, CHECKS_FILE);
  if (!fs.existsSync(abs)) {
    if (file) throw new InputError('checks file not found', file);
    return [];
  }
  return parseChecks(fs.readFileSync(abs, 'utf8'), displayPath(process.cwd(), abs));
}
