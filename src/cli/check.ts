import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MODEL } from '../core/chain/assemble';
import { casePassed, type CaseResult } from '../core/compare/check-run';
import { CHECKS_FILE, parseChecks } from '../core/compare/checks-file';
import { junitXml } from '../core/compare/junit';
import { InputError } from '../core/errors';
import { scrub } from '../core/providers/errors';
import { redact } from '../core/redact/apply';
import { num } from '../core/report/trace';
import { ContextEngine } from '../core/engine';
import { diskHost } from '../host/disk';
import { resolveInWorkspace } from '../core/sources/guard';
import { displayPath } from '../core/sources/snapshot';
import { providerFactory } from './provider-flags';
import { readRegularFile } from './read-bounded';
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

/** A checks file is a few KiB of YAML; a larger one is refused before it is parsed. */
export const CHECKS_MAX_BYTES = 4 * 1024 * 1024;

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
  const junit = v.junit === undefined ? undefined : junitTarget(v.junit);
  // Through the workspace guard: the workspace's checks file (or `.context`) linked out of it, a FIFO (it would
  // block), a folder or a secret file is refused; a file the caller names outside the workspace is read as named.
  const checked = resolveInWorkspace(abs, { root, outsideAsNamed: Boolean(v.checks) });
  if (!checked.ok) throw new InputError(checked.kind === 'missing' ? 'checks file not found' : checked.why, file);
  // Read as a regular file of bounded size, opened without blocking (the guard has no say over what a name outside
  // the workspace turns into between its look and the read).
  const source = readRegularFile(checked.abs, file, CHECKS_MAX_BYTES);
  if (source === undefined) throw new InputError('checks file not found', file);
  const cases = parseChecks(source, file);
  // Every text a case produced passes the redaction rule set before it is shaped into any output (the XML and the
  // workflow commands escape characters, which could split a secret so a rule no longer sees it), and once more after.
  const clean = (s: string) => redact(scrub(s, [factory.apiKey])).text;
  const github = (io.env ?? process.env).GITHUB_ACTIONS === 'true';
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-check-'));
  const results: CaseResult[] = [];
  try {
    const engine = new ContextEngine(diskHost, root);
    for (const [i, c] of cases.entries()) {
      const r = await engine.check(c, {
        file,
        model: v.model ?? DEFAULT_MODEL,
        encoding: v.encoding,
        sessionFile: v.session,
        provider: factory.make,
        clock: io.clock,
        signal: io.signal,
        offloadDir: path.join(scratch, String(i)),
      });
      const shown = cleanCase(r, clean);
      results.push(shown);
      io.stdout(clean(caseLines(shown, file, github ? workflowData : (x) => x)));
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const failed = results.filter((r) => !casePassed(r));
  const checks = results.reduce((n, r) => n + r.results.length, 0);
  const failing = results.reduce((n, r) => n + r.results.filter((x) => !x.ok).length + (r.error ? 1 : 0), 0);
  io.stdout(`\n${failed.length ? `FAILED: ${failed.length} of ${results.length} case(s), ${failing} failing check(s)` : `OK: ${results.length} case(s), ${checks} check(s) hold`}\n`);
  if (junit) {
    const xml = clean(junitXml(results, file));
    try {
      fs.mkdirSync(path.dirname(junit.abs), { recursive: true });
      fs.writeFileSync(junit.abs, xml);
    } catch (e) {
      throw new InputError(`cannot write the JUnit report (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, junit.label);
    }
  }
  if (github) io.stdout(clean(annotations(results, file)));
  return failed.length ? 1 : 0;
}

/**
 * Where the JUnit report goes, checked before any case runs: an existing path must be a regular file, and the
 * nearest existing folder on its way a folder (a path below a file is refused here, not after the run).
 */
function junitTarget(given: string): { abs: string; label: string } {
  const abs = path.resolve(given);
  const label = displayPath(process.cwd(), abs);
  const st = lstatOrNone(abs);
  if (st && !st.isFile()) throw new InputError('is not a regular file (a folder, a link or a device): the JUnit report is not written there', label);
  let dir = path.dirname(abs);
  while (!lstatOrNone(dir) && dir !== path.dirname(dir)) dir = path.dirname(dir);
  if (!statOrNone(dir)?.isDirectory()) throw new InputError(`${displayPath(process.cwd(), dir)} is not a folder: the JUnit report cannot be written below it`, label);
  return { abs, label };
}

const lstatOrNone = (p: string) => {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
};
const statOrNone = (p: string) => {
  try {
    return fs.statSync(p);
  } catch {
    return undefined;
  }
};

/** The case with every text it carries through `clean` (the redaction pass). */
function cleanCase(r: CaseResult, clean: (s: string) => string): CaseResult {
  const each = (x: CaseResult['results'][number]) => ({ ...x, expectation: clean(x.expectation), found: clean(x.found) });
  return { ...r, name: clean(r.name), error: r.error === undefined ? undefined : clean(r.error), results: r.results.map(each), skipped: r.skipped.map(each) };
}

function caseLines(r: CaseResult, file: string, data: (s: string) => string): string {
  const lines = [`${casePassed(r) ? '✓' : '✗'} ${data(r.name)}  (${data(file)}:${r.line}${r.final_tokens !== undefined ? `, ${num(r.final_tokens)} tokens` : ''})`];
  if (r.error) lines.push(`  FAIL  ${data(file)}:${r.line}  ${data(r.name)}: ${data(r.error)}`);
  for (const x of r.results) lines.push(`  ${x.ok ? 'PASS' : 'FAIL'}  ${data(file)}:${x.line}  ${data(r.name)}: ${data(x.expectation)}: ${data(x.found)}`);
  for (const x of r.skipped) lines.push(`  SKIP  ${data(file)}:${x.line}  ${data(r.name)}: answer ${data(x.expectation)}: ${data(x.found)}`);
  return lines.join('\n') + '\n';
}

/**
 * A value in a workflow command's message, or in any line printed under GitHub Actions, escaped by GitHub's rules
 * (`%` → %25, CR → %0D, LF → %0A): it stays on its own line, so no `::command` of the workspace's text can start one.
 */
export function workflowData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value (`file=`, `title=`): the message's escapes, and `:` → %3A, `,` → %2C. */
export function workflowProperty(s: string): string {
  return workflowData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** GitHub Actions workflow commands: one ::error per failing expectation, at its line. */
export function annotations(results: CaseResult[], file: string): string {
  const esc = workflowData;
  const prop = workflowProperty;
  const out: string[] = [];
  for (const r of results) {
    if (r.error) out.push(`::error file=${prop(file)},line=${r.line},title=${prop(`context check ${r.name}`)}::${esc(r.error)}`);
    for (const x of r.results.filter((y) => !y.ok)) out.push(`::error file=${prop(file)},line=${x.line},title=${prop(`context check ${r.name}`)}::${esc(`${x.expectation}: ${x.found}`)}`);
  }
  return out.length ? out.join('\n') + '\n' : '';
}
