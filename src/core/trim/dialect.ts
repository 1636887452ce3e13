import type { Lines } from './types';

/**
 * Which system wrote a tool output, by content with a confidence score (the share of sampled lines the dialect's
 * shape matches), never by a first character alone. Reported in the manifest beside the trimmer chosen.
 */
const DIALECTS: [string, RegExp][] = [
  ['json-lines', /^\s*\{".*\}\s*$/],
  ['logfmt', /^(?:\S+=(?:"[^"]*"|\S*)\s+){2,}\S+=/],
  ['syslog-rfc5424', /^<\d{1,3}>1 \d{4}-\d\d-\d\dT\S+ \S+ \S+ \S+ \S+ /],
  ['syslog-rfc3164', /^(?:<\d{1,3}>)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d \S+ [^:]+:/],
  ['journald-export', /^(?:__CURSOR|__REALTIME_TIMESTAMP|_BOOT_ID|PRIORITY|MESSAGE|_SYSTEMD_UNIT|SYSLOG_IDENTIFIER)=/],
  ['apache-error', /^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} \d\d \d\d:\d\d:\d\d(?:\.\d+)? \d{4}\] \[[\w:]+\]/],
  ['nginx-error', /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \[\w+\] \d+#\d+: /],
  ['access-log', /^\S+ \S+ \S+ \[\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\] "[A-Z]+ \S+ HTTP\/[\d.]+" \d{3} /],
  ['logcat-threadtime', /^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ [VDIWEFA] [^:]+: /],
  ['klog', /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ \S+:\d+\] /],
  ['windows-cbs', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d, (?:Info|Warning|Error|Perf)\s+\w+/],
  ['log4j', /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[,.]\d{3}\s+(?:-\s+)?(?:TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\b/],
  ['spring-boot', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\S*\s+(?:TRACE|DEBUG|INFO|WARN|ERROR)\s+\d+ --- /],
  ['python-logging', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (?:-\s+)?\S+ (?:-\s+)?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) /],
  ['hdfs', /^\d{6} \d{6} \d+ (?:INFO|WARN|ERROR|FATAL) /],
  ['spark', /^\d\d\/\d\d\/\d\d \d\d:\d\d:\d\d (?:INFO|WARN|ERROR) /],
  ['openstack', /^\S+\.log\S* \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \d+ (?:INFO|WARNING|ERROR|DEBUG|CRITICAL) /],
  ['bgl-ras', /^\S+ \d{10} \d{4}\.\d\d\.\d\d \S+ \d{4}-\d\d-\d\d-\d\d\.\d\d\.\d\d\.\d{6} \S+ RAS /],
  ['hpc', /^\d+ \S+ .+ \d{10} \d+ /],
  ['proxifier', /^\[\d\d\.\d\d \d\d:\d\d:\d\d\] \S.* - /],
  ['pipe-separated', /^\d{8}-\d\d:\d\d:\d\d:\d{3}\|[^|]+\|/],
  ['github-actions', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z /],
  ['gitlab-ci', new RegExp('^section_(?:start|end):\\d+:|^' + String.fromCharCode(27) + '\\[0K')],
  ['tap', /^(?:TAP version \d+|\s*(?:not )?ok \d+\b|1\.\.\d+$)/],
  ['junit-xml', /^\s*<(?:\?xml|testsuites?|testcase)\b/],
  ['trx', /^\s*<(?:TestRun|UnitTestResult|ResultSummary)\b/],
  ['jest/vitest', /^\s*(?:PASS|FAIL) \S+\.[cm]?[jt]sx?\b|^\s*[✓✕√×] /],
  ['pytest', /^(?:={3,} .* ={3,}|\S+\.py(?:::\S+)? (?:PASSED|FAILED|ERROR)|\S+\.py [.FEsx]+)/],
  ['go-test', /^(?:=== RUN|--- (?:PASS|FAIL):|(?:ok|FAIL)\s+\S+\s+[\d.]+s)/],
  ['cargo-test', /^(?:test \S+ \.\.\. (?:ok|FAILED|ignored)|running \d+ tests?)/],
  ['maven', /^\[(?:INFO|WARNING|ERROR)\] /],
  ['gradle', /^(?:> Task :|BUILD (?:SUCCESSFUL|FAILED))/],
  ['npm', /^(?:npm|pnpm) (?:ERR!|error|WARN|warn|notice) /],
  ['mocha', /^\s+\d+ (?:passing|failing|pending)\b/],
];

const SAMPLE = 200;

export interface DialectGuess {
  name: string;
  /** Share of the sampled non-blank lines with the dialect's shape, 0..1, two decimals. */
  confidence: number;
}

export function detectDialect(lines: Lines): DialectGuess | undefined {
  const hits = new Map<string, number>();
  let n = 0;
  for (const line of lines()) {
    if (n >= SAMPLE) break;
    if (line.trim() === '') continue;
    n++;
    for (const [name, re] of DIALECTS) if (re.test(line)) hits.set(name, (hits.get(name) ?? 0) + 1);
  }
  if (n === 0) return undefined;
  let best: DialectGuess | undefined;
  for (const [name, re] of DIALECTS) {
    void re;
    const c = (hits.get(name) ?? 0) / n;
    if (c > 0 && (!best || c > best.confidence)) best = { name, confidence: Math.round(c * 100) / 100 };
  }
  return best;
}
