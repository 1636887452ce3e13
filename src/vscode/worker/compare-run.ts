/** Worker side: Compare Policies, the same core as `ctxctl compare`. No `vscode`. */
import * as path from 'node:path';
import { variantNames, type CompareResult } from '../../core/compare/run';
import type { Policy } from '../../core/policy';
import type { Provider } from '../../core/providers/provider';
import type { CompareArgs } from './protocol';
import { engineFor, load } from './load';

/**
 * Each variant and run gets its own empty offload store under the scratch folder. With the panel's inputs, each
 * variant is the panel's snapshot under that variant's policy (pins, unsaved buffers, editor signals, envelope).
 */
export function runCompare(args: CompareArgs, provider?: () => Provider): Promise<CompareResult> {
  const { scratch, policies, provider: _spec, root, inputs, variantPolicies, ...input } = args;
  return engineFor(root).compare({
    ...input,
    variants: variantNames(policies).map((v, i) => (variantPolicies?.[i] ? { ...v, policy: variantPolicies[i] } : v)),
    ...(inputs ? { load: (policy: Policy) => load({ ...inputs, root, policy }) } : {}),
    provider,
    offloadDir: (i, r) => path.join(scratch, `${i}-${r}`),
  });
}
