/** Worker side: Compare Policies, the same core as `ctxctl compare`. No `vscode`. */
import * as path from 'node:path';
import { compare, variantNames, type CompareResult } from '../../core/compare/run';
import type { Provider } from '../../core/providers/provider';
import { workspaceSummaries } from '../../core/session/summary-store';
import type { Policy } from '../../core/policy';
import { load } from './load';
import type { CompareArgs } from './protocol';

/** Each variant and run gets its own empty offload store under the scratch folder. */
export function runCompare(args: CompareArgs, provider?: () => Provider): Promise<CompareResult> {
  const { scratch, policies, provider: _spec, inputs, variantPolicies, ...input } = args;
  return compare({
    ...input,
    variants: variantNames(policies).map((v, i) => (variantPolicies?.[i] ? { ...v, policy: variantPolicies[i] } : v)),
    ...(inputs ? { load: (policy: Policy) => load({ ...inputs, policy }) } : {}),
    provider,
    summaries: workspaceSummaries(input.root, input.sessionFile),
    offloadDir: (i, r) => path.join(scratch, `${i}-${r}`),
  });
}
