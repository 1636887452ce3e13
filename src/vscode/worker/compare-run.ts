/** Worker side: Compare Policies, the same core as `ctxctl compare`. No `vscode`. */
import * as path from 'node:path';
import { variantNames, type CompareResult } from '../../core/compare/run';
import type { Provider } from '../../core/providers/provider';
import type { CompareArgs } from './protocol';
import { engineFor } from './load';

/** Each variant and run gets its own empty offload store under the scratch folder. */
export function runCompare(args: CompareArgs, provider?: () => Provider): Promise<CompareResult> {
  const { scratch, policies, provider: _spec, root, ...input } = args;
  return engineFor(root).compare({
    ...input,
    variants: variantNames(policies),
    provider,
    offloadDir: (i, r) => path.join(scratch, `${i}-${r}`),
  });
}
