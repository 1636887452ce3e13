import type { AssemblyService, AssemblyState } from './assembly';

/** One search per assembly, however often its banner is drawn. */
const searches = new WeakMap<AssemblyState, Promise<boolean>>();

/**
 * The window that sends the evidence an assembly dropped: asked of the worker only when the panel shows the "Dropped
 * to fit" banner (load.ts findWindow), never after every assembly. The figure is kept on the assembly's state, so the
 * banner drawn again (the panel reopened) has it. Resolves true when the state now has its answer.
 */
export function findWindow(service: Pick<AssemblyService, 'worker' | 'workspaceRoot' | 'state' | 'busy' | 'run'>, state: AssemblyState): Promise<boolean> {
  if (state.kind !== 'ok' || state.fit?.ticket === undefined || !service.workspaceRoot) return Promise.resolve(false);
  let search = searches.get(state);
  if (!search) searches.set(state, (search = searchFor(service, state, service.workspaceRoot, state.fit.ticket)));
  return search;
}

async function searchFor(service: Pick<AssemblyService, 'worker' | 'state' | 'busy' | 'run'>, state: Extract<AssemblyState, { kind: 'ok' }>, root: string, ticket: number): Promise<boolean> {
  const r = await service.worker.call('findWindow', { root, ticket });
  if (r.superseded) {
    // A newer assembly came first (it has its own ticket), or a fresh worker no longer has these inputs (after an
    // idle time): when this state is still the latest and nothing runs, assemble again for a ticket the worker has.
    if (service.state === state && !service.busy) void service.run();
    return false;
  }
  state.fit = { sources: state.fit?.sources ?? [], ...(r.window !== undefined ? { window: r.window } : {}) };
  return true;
}
