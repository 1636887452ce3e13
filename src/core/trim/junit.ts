import { clipLine, own } from './lines';
import { describeCounts, isLocation, isNoise, type RunCounts } from './test-dialects';
import { firstThatFits, type Lines, type TrimOptions, type TrimOutput } from './types';

/**
 * JUnit XML (Surefire, Gradle, pytest --junitxml, jest-junit, vitest's junit reporter): one streaming pass over the
 * tags. The counts come from <testsuites>/<testsuite> attributes; every <testcase> holding a <failure> or <error>
 * is kept with its message, type, location and the first lines of its text; passing test cases are counted only.
 */

const MAX_FAILURES = 500;
const MAX_BODY_LINES = 60;
const TAG = /<(\/?)(testsuites|testsuite|testcase|failure|error|skipped)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;

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

function attributes(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of raw.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1]] = decodeXml(m[2] ?? m[3] ?? '');
  return out;
}

export function trimJunit(lines: Lines, options: TrimOptions): TrimOutput {
  const top: RunCounts = {};
  const sum: RunCounts = { total: 0, failed: 0, errors: 0, skipped: 0 };
  let sawTop = false;
  const failures: JunitFailure[] = [];
  let testcase: { name: string; classname: string; time?: string; file?: string; line?: string } | undefined;
  let open: JunitFailure | undefined;
  let cases = 0;
  let failing = 0;
  let uncounted = 0;
  let total = 0;
  let carry = '';
  for (const raw of lines()) {
    total++;
    // A tag split over lines is carried to the next one (bounded: a runaway tag is dropped).
    const line = carry ? `${carry} ${raw}` : raw;
    carry = '';
    const lastOpen = line.lastIndexOf('<');
    if (lastOpen >= 0 && line.indexOf('>', lastOpen) < 0 && line.length - lastOpen < 8192) carry = own(line.slice(lastOpen));
    const text = carry ? line.slice(0, lastOpen) : line;
    let cursor = 0;
    for (const m of text.matchAll(TAG)) {
      if (open && m.index > cursor) addBody(open, text.slice(cursor, m.index));
      cursor = m.index + m[0].length;
      const [, closing, tag, rawAttrs, selfClosing] = m;
      const a = closing ? {} : attributes(rawAttrs);
      if (tag === 'testsuites' && !closing) {
        sawTop = true;
        Object.assign(top, counts(a));
      } else if (tag === 'testsuite' && !closing) {
        const c = counts(a);
        for (const k of ['total', 'failed', 'errors', 'skipped'] as const) sum[k] = (sum[k] ?? 0) + (c[k] ?? 0);
      } else if (tag === 'testcase' && !closing) {
        cases++;
        testcase = { name: a.name ?? '(unnamed)', classname: a.classname ?? a.class ?? '', time: a.time, file: a.file, line: a.line };
        if (selfClosing) testcase = undefined;
      } else if (tag === 'testcase' && closing) {
        testcase = undefined;
        open = undefined;
      } else if ((tag === 'failure' || tag === 'error') && !closing && testcase) {
        failing++;
        if (failures.length >= MAX_FAILURES) {
          uncounted++;
          continue;
        }
        const f: JunitFailure = { ...testcase, kind: tag, type: a.type, message: a.message, body: [] };
        failures.push(f);
        open = selfClosing ? undefined : f;
      } else if ((tag === 'failure' || tag === 'error') && closing) open = undefined;
    }
    if (open && cursor < text.length) addBody(open, text.slice(cursor));
  }
  const c: RunCounts = sawTop && top.total !== undefined ? top : sum.total ? sum : { total: cases, failed: failing };
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
    note: `${failing} failures kept with their messages and locations, summary kept (${describeCounts(c)}); ${c.passed} passing tests dropped${c.skipped ? ` (and ${c.skipped} skipped)` : ''}`,
  };
}

function counts(a: Record<string, string>): RunCounts {
  const n = (k: string) => (a[k] !== undefined && /^\d+$/.test(a[k]) ? Number(a[k]) : undefined);
  return { total: n('tests'), failed: n('failures'), errors: n('errors'), skipped: n('skipped') ?? n('disabled') };
}

function addBody(f: JunitFailure, text: string): void {
  for (const piece of text.replace(/<!\[CDATA\[|\]\]>/g, '').split('\n')) {
    const line = decodeXml(piece).trimEnd();
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
