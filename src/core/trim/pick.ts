import { trimCommand } from './command';
import { trimJson } from './json';
import { trimLog } from './log';
import { timestampOf } from './log-parse';
import { severityOf, statedLevel } from './severity';
import { jsonReportKind } from './json-reports';
import { failureStart, summaryDialect } from './test-dialects';
import { trimTestReport } from './test-report';
import type { Lines, Trimmer } from './types';

/** The formats a policy can name (`tool_output.formats[].format`), each with its trimmer. */
export const TRIM_FORMATS = ['log', 'test', 'command', 'json'] as const;
export type TrimFormat = (typeof TRIM_FORMATS)[number];

export const TRIMMERS: Record<TrimFormat, Trimmer> = {
  log: trimLog,
  test: trimTestReport,
  command: (lines, options) => trimCommand(lines, options),
  json: trimJson,
};

/** How the format was chosen, for the manifest. */
export type FormatSource = 'policy' | 'content' | 'tool' | 'name' | 'default';

const SAMPLE_LINES = 200;
const TEST_OPENING =
  /^(?:PASS|FAIL) \S+\.[cm]?[jt]sx?\b|^\s*RUN\s+v\d|^={3,} test session starts ={3,}$|^TAP version \d+|^\s*(?:not )?ok \d+ - |^\s*[✓✔√] \S|^\[INFO\] (?:T E S T S|Running \S+Test\b)|^\s*Tests run: \d+, Failures: \d+|^running \d+ tests?$|^test \S+ \.\.\. (?:ok|FAILED|ignored)$|^\s*<\?xml\b.*|^\s*<(?:testsuites?|test-run|test-results|TestRun|assemblies)\b/;
const LEVEL_WORD = /\b(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\b|"(?:level|severity|severity_?text|SeverityText)"\s*:|\blevel=\w/i;
const TOOL_HINTS: [RegExp, TrimFormat][] = [
  [/test|spec|pytest|jest|vitest|mocha|junit|nunit|xunit|trx|rspec/i, 'test'],
  [/log/i, 'log'],
  [/shell|bash|command|exec|terminal|cmd|run/i, 'command'],
];

/** Guess the format from the first lines: test reports and JSON by their marks, logs by their timestamps and levels. */
export function sniffFormat(lines: Lines): TrimFormat | undefined {
  // Test reports written as JSON (mocha, jest, RSpec; go test -json and dart events, whose lines carry times).
  if (jsonReportKind(lines)) return 'test';
  let n = 0;
  let logLike = 0;
  let jsonFirst: boolean | undefined;
  let firstIsLog = false;
  let allObjects = true;
  for (const line of lines()) {
    if (n >= SAMPLE_LINES) break;
    if (line.trim() === '') continue;
    n++;
    if (jsonFirst === undefined) {
      jsonFirst = /^\s*[[{]/.test(line);
      firstIsLog = timestampOf(line) !== undefined || statedLevel(line) !== undefined;
    }
    if (!/^\s*\{.*\}\s*$/.test(line)) allObjects = false;
    if (TEST_OPENING.test(line) || summaryDialect(line) || failureStart(line, false)) return 'test';
    if (timestampOf(line) !== undefined || LEVEL_WORD.test(line) || statedLevel(line) !== undefined) logLike++;
  }
  if (n === 0) return undefined;
  // Never by a first character alone: `[10.30 16:49:06] chrome.exe …` and `[Sun Dec 04 …] [error] …` are logs.
  const mostlyLog = logLike / n >= 0.3;
  if (jsonFirst && allObjects) return mostlyLog ? 'log' : 'json';
  if (jsonFirst && !firstIsLog) return 'json';
  if (mostlyLog) return 'log';
  return severityShare(lines) >= 0.02 ? 'log' : undefined;
}

/** Share of error/warning lines among the first lines: a log without timestamps or levels still shows its failures. */
function severityShare(lines: Lines): number {
  let n = 0;
  let hits = 0;
  for (const line of lines()) {
    if (n >= SAMPLE_LINES) break;
    if (line.trim() === '') continue;
    n++;
    if (severityOf(line) !== 'info') hits++;
  }
  return n === 0 ? 0 : hits / n;
}

/**
 * Choose a trimmer: the policy's format for the file; else what the content shows (test report, JSON, log); else
 * the tool's name (`run_tests`, `read_logs`, `shell`); else the file name; else
 * command output.
 */
export function pickTrimmer(path: string, format: string | undefined, lines: Lines, tool?: string): { trimmer: Trimmer; format: TrimFormat; how: FormatSource } {
  const known = (f: string | undefined): f is TrimFormat => (TRIM_FORMATS as readonly string[]).includes(f ?? '');
  let chosen: TrimFormat;
  let how: FormatSource;
  const sniffed = known(format) ? undefined : sniffFormat(lines);
  const hinted = tool ? TOOL_HINTS.find(([re]) => re.test(tool))?.[1] : undefined;
  if (known(format)) [chosen, how] = [format, 'policy'];
  else if (sniffed) [chosen, how] = [sniffed, 'content'];
  else if (hinted) [chosen, how] = [hinted, 'tool'];
  else if (/\.(?:log|out)$|(?:^|\/)logs\//i.test(path)) [chosen, how] = ['log', 'name'];
  else if (/(?:^|\/)(?:junit[^/]*|TEST-[^/]*)\.xml$|\.tap$|\.trx$|(?:^|\/)(?:test-results|TestResults)\//i.test(path)) [chosen, how] = ['test', 'name'];
  else if (/\.(?:json|jsonl|ndjson)$/i.test(path)) [chosen, how] = ['json', 'name'];
  else [chosen, how] = ['command', 'default'];
  return { trimmer: TRIMMERS[chosen], format: chosen, how };
}
