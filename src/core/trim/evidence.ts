import { scanErrors, type ErrorGroup } from './log-scan';
import { readStructuredReport } from './test-report';
import type { Lines } from './types';

/**
 * How much evidence a tool output holds, measured in one streaming pass before any budget is given: error and
 * warning lines, their distinct templates, how many of those are rare (seen once or twice), and the time of the
 * first error. The tool-results zone is shared by these figures, not evenly.
 */
export interface Evidence {
  errorLines: number;
  warningLines: number;
  errorTemplates: number;
  warningTemplates: number;
  rareTemplates: number;
  /** Epoch ms of the first error (or warning), when its timestamp can be read. */
  firstTime?: number;
}

/** The same pass the log trimmer makes (stack traces belong to their error), so the figures agree with its rows. */
export function measureEvidence(lines: Lines): Evidence {
  // A structured test report (JUnit, NUnit, TRX, JSON reports) is evidence by its failures, whatever words they use.
  const report = readStructuredReport(lines);
  const failed = report ? report.failures.length + report.uncounted : 0;
  if (report && failed > 0) {
    const seen = new Map<string, number>();
    for (const f of report.failures) seen.set(f.message ?? f.name, (seen.get(f.message ?? f.name) ?? 0) + 1);
    return { errorLines: failed, warningLines: 0, errorTemplates: seen.size, warningTemplates: 0, rareTemplates: [...seen.values()].filter((n) => n <= 2).length };
  }
  const scan = scanErrors(lines);
  const errors = scan.groups.filter((g) => g.severity === 'error');
  const first = (errors.length > 0 ? errors : scan.groups).reduce<ErrorGroup | undefined>((a, g) => (a === undefined || g.firstIndex < a.firstIndex ? g : a), undefined);
  const t = first?.firstTs !== undefined ? Date.parse(first.firstTs) : NaN;
  return {
    errorLines: scan.errors,
    warningLines: scan.warnings,
    errorTemplates: errors.length,
    warningTemplates: scan.groups.length - errors.length,
    rareTemplates: scan.groups.filter((g) => g.count <= 2).length,
    ...(Number.isFinite(t) ? { firstTime: t } : {}),
  };
}

/**
 * The weight of an output in the zone: severity first (an error template counts three warnings), then distinct
 * templates, then rarity; the output whose first error comes earliest (the likely cause) gets a bonus.
 * No evidence: weight 0, the output gets a glance instead of a share.
 */
export function evidenceWeight(e: Evidence, earliestRank: number | undefined): number {
  if (e.errorLines + e.warningLines === 0) return 0;
  const base = 3 * Math.min(e.errorTemplates, 40) + Math.min(e.warningTemplates, 40) + 0.5 * Math.min(e.rareTemplates, 40) + (e.errorLines > 0 ? 3 : 1);
  const early = earliestRank === undefined ? 1 : 1 + 0.5 / (earliestRank + 1);
  return base * early;
}
