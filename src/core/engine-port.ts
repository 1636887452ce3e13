import type { Assembly } from './chain/assemble';
import type { AssembleRequest, LoadRequest } from './engine-requests';
import type { Policy } from './policy';
import type { SendLoopOptions, SendOutcome } from './send/loop';
import type { Snapshot } from './sources/snapshot';

/**
 * What the core's own callers of the chain (the MCP tools, compare, the checks, session maintenance) need of the
 * folder's engine: `ContextEngine` (engine.ts) is it. Declared apart so they take the engine without importing it
 * (the engine imports them).
 */
export interface ChainEngine {
  readonly root: string;
  policy(policyFile?: string): Policy;
  load(request: LoadRequest): Snapshot;
  assemble(snapshot: Snapshot, options?: AssembleRequest): Assembly;
  send(snapshot: Snapshot, options: SendLoopOptions): Promise<SendOutcome>;
}
