/** Worker side: the request as it would be with one more pin, assembled for real (no `vscode`). */
import { ContextBudgetExceeded } from '../../core/errors';
import type { Pin } from '../../core/sources/snapshot';
import type { PinTrial } from '../../view-model/pin-outcome';
import { engineFor, load } from './load';
import type { AssembleRequest } from './protocol';

/**
 * Assemble the panel's inputs with `pin` added after the current pins (where the pin store adds it, with the id it
 * will get): the request the panel shows once the pin is made, refused or not. Nothing is recorded.
 */
export function pinTrial(req: Pick<AssembleRequest, 'snapshot' | 'options'> & { pin: Pin }): PinTrial {
  const snapshot = load({ ...req.snapshot, pins: [...(req.snapshot.pins ?? []), req.pin] });
  const id = `pinned:${req.pin.id}`;
  try {
    const assembly = engineFor(req.snapshot.root).assemble(snapshot, { ...req.options, sessionFile: req.snapshot.sessionFile, summaries: undefined, previousPrefixHash: undefined });
    const b = assembly.manifest.budget;
    return { kind: 'fits', pinTokens: assembly.blocks.find((x) => x.id === id)?.tokens ?? 0, final: b.final, maxInput: b.max_input, sent: assembly.blocks.map((x) => ({ source: x.source, tokens: x.tokens })) };
  } catch (e) {
    if (!(e instanceof ContextBudgetExceeded)) throw e;
    const pinned = e.blocks.find((x) => x.id === id);
    return { kind: 'refused', ...(pinned ? { pinTokens: pinned.tokens } : {}), mandatoryTokens: e.mandatoryTokens, maxInput: e.maxInput, window: snapshot.policy.envelope.window };
  }
}
