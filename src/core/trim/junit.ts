import { SaxesParser } from 'saxes';
import { clipLine, own } from './lines';
import { describeCounts, isLocation, isNoise, type RunCounts } from './test-dialects';
import { firstThatFits, type Lines, type TrimOptions, type TrimOutput } from './types';

/**
 * JUnit XML (Surefire, Gradle, pytest --junitxml, jest-junit, vitest's junit reporter): one streaming pass with a
 * real XML parser (saxes: comments, CDATA and entities handled by the parser). The counts come from the test cases
 * themselves, each counted once however deep the suites nest; every <testcase> holding a <failure> or <error>
 * is kept with its message, type, location and the first lines of its text; passing test cases are counted only.
 */

const MAX_FAILURES = 500;
const MAX_BODY_LINES = 60;

interface JunitFailure {
  name: string;
  classname: string;
  time?: string;
  kind: 'failure' | 'error';
  type?: string;
  message?: string;
  file?: string;
  line?: string;
  body: string[];
}

/** A JUnit report announces itself in its first lines. */
export function looksLikeJunit(lines: Lines): boolean {
  let seen = 0;
  for (const line of lines()) {
    if (/<testsuites?\b/.test(line)) return true;
    if (line.trim() !== '' && ++seen >= 20) return false;
  }
  return false;
}

export function decodeXml(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

export function trimJunit(lines: Lines, options: TrimOptions): TrimOutput {
  const top: RunCounts = {};
  let sawTop = false;
  const failures: JunitFailure[] = [];
  let testcase: { name: string; classname: string; time?: string; file?: string; line?: string; skipped?: boolean } | undefined;
  let open: JunitFailure | undefined;
  // Counted from the test cases themselves: nested <testsuite>s repeat their children's figures, and a failure
  // inside an XML comment is no failure (the parser skips comments).
  let cases = 0;
  let failing = 0;
  let erroring = 0;
  let skipped = 0;
  let uncounted = 0;
  let total = 0;
  let bad: string | undefined;
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on('error', (e) => {
    bad ??= e.message;
  });
  parser.on('opentag', (tag) => {
    const a = tag.attributes as Record<string, string>;
    if (tag.name === 'testsuites' && !sawTop) {
      sawTop = true;
      Object.assign(top, counts(a));
    } else if (tag.name === 'testcase') {
      cases++;
      testcase = { name: a.name ?? '(unnamed)', classname: a.classname ?? a.class ?? '', time: a.time, file: a.file, line: a.line };
    } else if (tag.name === 'skipped' && testcase && !testcase.skipped) {
      testcase.skipped = true;
      skipped++;
    } else if ((tag.name === 'failure' || tag.name === 'error') && testcase) {
      if (tag.name === 'failure') failing++;
      else erroring++;
      if (failures.length >= MAX_FAILURES) {
        uncounted++;
        return;
      }
      const f: JunitFailure = { name: testcase.name, classname: testcase.classname, time: testcase.time, file: testcase.file, line: testcase.line, kind: tag.name, type: a.type, message: a.message, body: [] };
      failures.push(f);
      open = f;
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'testcase') {
      testcase = undefined;
      open = undefined;
    } else if (tag.name === 'failure' || tag.name === 'error') open = undefined;
  });
  parser.on('text', (t) => {
    if (open) addBody(open, t);
  });
  parser.on('cdata', (t) => {
    if (open) addBody(open, t);
  });
  for (const raw of lines()) {
    total++;
    if (bad === undefined) parser.write(`${raw}\n`);
  }
  if (bad === undefined) parser.close();
  const sum: RunCounts = { total: cases, failed: failing, errors: erroring, skipped };
  // The test cases are the truth; the top-level attributes only when the cases could not be read.
  const c: RunCounts = cases > 0 ? sum : sawTop && top.total !== undefined ? top : sum;
  c.passed = (c.total ?? cases) - (c.failed ?? 0) - (c.errors ?? 0) - (c.skipped ?? 0);
  const cap = options.maxStackLines;
  const clip = options.maxLineChars;
  const candidate = (level: number) => (): string[] => {
    const out = [`test run (junit xml): ${describeCounts(c)}; passing tests dropped`];
    if (failures.length > 0) out.push('', `failures (${failures.length}${uncounted ? ` listed, ${uncounted} more not listed` : ''}):`);
    for (const f of failures) out.push(...render(f, level, cap).map((l) => clipLine(l, clip)));
    return out;
  };
  const chosen = firstThatFits([0, 1, 2, 3, 4].map(candidate), options);
  const retained = chosen.filter((l) => l !== '' && !l.startsWith('… ') && !/^test run \(|^failures \(\d+/.test(l)).length;
  return {
    text: chosen.join('\n'),
    originalLines: total,
    retainedLines: retained,
    format: 'test',
    note: `${bad ? `XML not well-formed (${bad}): read up to the error; ` : ''}${failing + erroring} failures kept with their messages and locations, summary kept (${describeCounts(c)}); ${c.passed} passing tests dropped${c.skipped ? ` (and ${c.skipped} skipped)` : ''}`,
  };
}

function counts(a: Record<string, string>): RunCounts {
  const n = (k: string) => (a[k] !== undefined && /^\d+$/.test(a[k]) ? Number(a[k]) : undefined);
  return { total: n('tests'), failed: n('failures'), errors: n('errors'), skipped: n('skipped') ?? n('disabled') };
}

function addBody(f: JunitFailure, text: string): void {
  for (const piece of text.split('\n')) {
    const line = piece.trimEnd();
    if (line.trim() !== '' && f.body.length < MAX_BODY_LINES) f.body.push(own(line));
  }
}

/** Levels as for text reports: 0 message and text (capped), 1 without framework frames, 2 message and location, 3 message, 4 name. */
function render(f: JunitFailure, level: number, cap: number): string[] {
  const name = `${f.kind === 'error' ? 'ERROR' : 'FAILED'} ${f.classname ? `${f.classname} > ` : ''}${f.name}${f.time ? ` (${f.time} s)` : ''}`;
  if (level >= 4) return [name];
  const out = [name];
  const message = f.message ?? f.body[0];
  out.push(`  ${f.kind}${f.type ? ` (${f.type})` : ''}: ${message ?? '(no message)'}`);
  if (level === 3) return out;
  const body = f.body.filter((l) => l !== message && !(f.message && l.includes(f.message) && l.startsWith(f.type ?? '\0')));
  const location = f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : body.find((l) => isLocation(l) && (!f.classname || l.includes(f.classname.split('.').pop() ?? '')));
  if (level <= 1) {
    const lines = level === 0 ? body : body.filter((l) => !isNoise(l, 'maven'));
    const kept = lines.slice(0, level === 0 ? cap : Math.min(cap, 5));
    if (location && !kept.includes(location) && !f.file) kept.push(location);
    out.push(...kept.map((l) => `  ${l.trim()}`));
    if (f.file) out.push(`  at ${location}`);
    return out;
  }
  if (location) out.push(`  at ${location.trim().replace(/^at /, '')}`);
  return out;
}
