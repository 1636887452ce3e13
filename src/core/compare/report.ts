import type { DecisionsDiff } from './diff';
import { PRICE_TABLE } from './cost';
import { variantSpread, type CompareResult } from './run';
import type { Manifest } from '../report/manifest';

/** `ctxctl compare --json`: exactly one object, `{variants: [{policy, manifest, runs, checks}], diff}`, each manifest whole. */

export interface CompareJson {
  variants: {
    name: string;
    policy: string;
    manifest: Manifest;
    runs: unknown[];
    spread: Record<string, unknown>;
    checks: { evidence: unknown[]; answers: unknown[]; passed: number; failed: number };
  }[];
  diff: DecisionsDiff & { prices_as_of: string };
}

export function compareJson(result: CompareResult): CompareJson {
  return {
    variants: result.variants.map((v) => {
      const all = [...v.evidence.flatMap((c) => c.evidence), ...v.runs.flatMap((r) => r.checks)];
      return {
        name: v.name,
        policy: v.policy,
        manifest: v.manifest,
        runs: v.runs,
        spread: variantSpread(v),
        checks: {
          evidence: v.evidence,
          answers: v.runs.map((r) => ({ run: r.run, checks: r.checks })),
          passed: all.filter((c) => c.ok).length,
          failed: all.filter((c) => !c.ok).length,
        },
      };
    }),
    diff: { ...result.diff, prices_as_of: PRICE_TABLE.as_of },
  };
}
