import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MODEL } from '../core/chain/assemble';
import { casePassed, runCase, type CaseResult } from '../core/compare/check-run';
import { CHECKS_FILE, parseChecks } from '../core/compare/checks-file';
import { junitXml } from '../core/compare/junit';
import { InputError } from '../core/errors';
import { scrub } from '../core/providers/errors';
import { num } from '../core/report/trace';
import { workspaceSummaries } from '../core/session/summary-store';
import { resolveInWorkspace } from '../core/sources/guard';
import { displayPath } from '../core/sources/snapshot';
import { providerFactory } from './provider-flags';
import type { SendIo } from './send';

/** `ctxctl check`: run every case of the checks file; one line per expectation; exit 1 when one fails. */

export const CHECK_USAGE = `  ctxctl check --workspace DIR [--checks FILE] [--junit FILE] [--provider dry-run|openai|anthropic --model M
               --base-url URL] [--session FILE] [--encoding E]`;

const HELP = `Usage:
${CHECK_USAGE}

  Runs every case of the checks file (default DIR/${CHECKS_FILE}): builds the case's request and checks max_tokens,
  select, reject, contains and excludes; with --provider, sends it once and checks the answer (mentions, cites,
  not_claims). Prints one line per check; the failing ones name the case, the expectation and what was found.
  --junit FILE  one testcase per case, the failing expectations as its failure message
  GITHUB_ACTIONS=true adds ::error annotations at the failing expectation's line.

Exit codes: 0 every check holds, 1 a check failed, 2 bad input (checks file, policy, task) or usage.`;

class CheckUsage extends Error {}

export async function checkCommand(argv: string[], io: SendIo): Promise<number> {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args: argv,
      strict: true,
      options: {
        ...Object.fromEntries(['workspace', 'checks', 'junit', 'provider', 'model', 'base-url', 'session', 'encoding', 'timeout'].map((k) => [k, { type: 'string' as const }])),
        help: { type: 'boolean', short: 'h' },
      },
    }).values as Record<string, string | boolean | undefined>;
    if (v.help) {
      io.stdout(HELP + '\n');
      return 0;
    }
    if (typeof v.workspace !== 'string') throw new CheckUsage('--workspace DIR is required');
    const timeout = v.timeout === undefined ? undefined : Number(v.timeout);
    if (timeout !== undefined && (!Number.isInteger(timeout) || timeout <= 0)) throw new CheckUsage(`--timeout must be a positive whole number, got "${v.timeout}"`);
    const factory = providerFactory({ provider: v.provider as string | undefined, model: v.model as string | undefined, baseUrl: v['base-url'] as string | undefined, timeoutSeconds: timeout }, io.env ?? process.env, io.clock);
    if (typeof factory === 'string') throw new CheckUsage(factory);
    return await checkWith(v as Record<string, string | undefined>, factory, io);
  } catch (e) {
    if (!(e instanceof CheckUsage) && !(e instanceof TypeError && (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) throw e;
    io.stderr(`ctxctl: ${(e as Error).message}\n\n${HELP}\n`);
    return 2;
  }
}

async function checkWith(v: Record<string, string | undefined>, factory: Exclude<ReturnType<typeof providerFactory>, string>, io: SendIo): Promise<number> {
  const root = path.resolve(v.workspace!);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new InputError('workspace folder not found', v.workspace);
  const abs = v.checks ? path.resolve(v.checks) : path.join(root, CHECKS_FILE);
  const file = displayPath(process.cwd(), abs);
  // Through the workspace guard: the workspace's checks file (or `.context`) linked out of it, a FIFO (it would
  // block), a folder or a secret file is refused; a file the caller names outside the workspace is read as named.
  const checked = resolveInWorkspace(abs, { root, outsideAsNamed: Boolean(v.checks) });
  if (!checked.ok) throw new InputError(checked.kind === 'missing' ? 'checks file not found' : checked.why, file);
  const cases = parseChecks(fs.readFileSync(checked.abs, 'utf8'), file);
  const clean = (s: string) => scrub(s, [factory.apiKey]);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-check-'));
  const results: CaseResult[] = [];
  try {
    for (const [i, c] of cases.entries()) {
      const r = await runCase(c, {
        root,
        file,
        model: v.model ?? DEFAULT_MODEL,
        encoding: v.encoding,
        sessionFile: v.session,
        summaries: workspaceSummaries(root, v.session),
        provider: factory.make,
        clock: io.clock,
        signal: io.signal,
        offloadDir: path.join(scratch, String(i)),
      });
      results.push(r);
      io.stdout(clean(caseLines(r, file)));
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const failed = results.filter((r) => !casePassed(r));
  const checks = results.reduce((n, r) => n + r.results.length, 0);
  const failing = results.reduce((n, r) => n + r.results.filter((x) => !x.ok).length + (r.error ? 1 : 0), 0);
  io.stdout(`\n${failed.length ? `FAILED: ${failed.length} of ${results.length} case(s), ${failing} failing check(s)` : `OK: ${results.length} case(s), ${checks} check(s) hold`}\n`);
  if (v.junit) {
    fs.mkdirSync(path.dirname(path.resolve(v.junit)), { recursive: true });
    fs.writeFileSync(v.junit, clean(junitXml(results, file)));
  }
  const env = io.env ?? process.env;
  if (env.GITHUB_ACTIONS === 'true') io.stdout(clean(annotations(results, file)));
  return failed.length ? 1 : 0;
}

function caseLines(r: CaseResult, file: string): string {
  const lines = [`${casePassed(r) ? '✓' : '✗'} ${r.name}  (${file}:${r.line}${r.final_tokens !== undefined ? `, ${num(r.final_tokens)} tokens` : ''})`];
  if (r.error) lines.push(`  FAIL  ${file}:${r.line}  ${r.name}: ${r.error}`);
  for (const x of r.results) lines.push(`  ${x.ok ? 'PASS' : 'FAIL'}  ${file}:${x.line}  ${r.name}: ${x.expectation}: ${x.found}`);
  for (const x of r.skipped) lines.push(`  SKIP  ${file}:${x.line}  ${r.name}: answer ${x.expectation}: ${x.found}`);
  return lines.join('\n') + '\n';
}

/** GitHub Actions workflow commands: one ::error per failing expectation, at its line. */
export function annotations(results: CaseResult[], file: string): string {
  const esc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const out: string[] = [];
  for (const r of results) {
    if (r.error) out.push(`::error file=${prop(file)},line=${r.line},title=${prop(`context check ${r.name}`)}::${esc(r.error)}`);
    for (const x of r.results.filter((y) => !y.ok)) out.push(`::error file=${prop(file)},line=${x.line},title=${prop(`context check ${r.name}`)}::${esc(`${x.expectation}: ${x.found}`)}`);
  }
  return out.length ? out.join('\n') + '\n' : '';
}
