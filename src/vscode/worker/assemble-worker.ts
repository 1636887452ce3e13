/**
 * The chain runs here, off the extension host's thread, so tokenizing never freezes the editor: the panel's
 * assembly, the chat's preview, compaction preview and tools, the context checks (ops.ts). The tokenizer's count
 * cache and the relevance index live as long as the worker. No `vscode` import.
 */
import { parentPort } from 'node:worker_threads';
import type { Snapshot } from '../../core/sources/snapshot';
import { handlers } from './ops';
import type { OpName, OpRequest, OpResponse } from './ops-protocol';
import { postedResult } from './posted-assembly';
import { serialize } from './serialize';
import { installDiskHost } from '../../host/disk';
import { saveKeptIndexes } from './load';

// The engines of this bundle take their host; code it calls outside an engine reaches the default one: the disk.
installDiskHost();

parentPort?.on('message', async (req: OpRequest) => {
  let snapshot: Snapshot | undefined;
  let res: OpResponse;
  try {
    const handler = handlers[req.op] as (args: unknown, onSnapshot: (s: Snapshot) => void) => unknown;
    if (!handler) throw new Error(`unknown worker operation "${String(req.op as OpName)}"`);
    const value = await handler(req.args, (s) => (snapshot = s));
    res = { id: req.id, ok: true, value: postedResult(req.op, value) };
  } catch (e) {
    res = { id: req.id, ok: false, error: serialize(e, snapshot) };
  }
  parentPort?.postMessage(res);
  keepIndexesSoon();
});

/**
 * The folders' indexes are saved for the next session (and for `ctxctl preview`) once no operation came for a
 * while: a burst of keystrokes writes the index once, after it. A note (rebuilt, not saved) goes to stderr, which
 * the extension's log shows.
 */
const SAVE_AFTER_MS = 2000;
let saveTimer: ReturnType<typeof setTimeout> | undefined;
function keepIndexesSoon(): void {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    saveTimer = undefined;
    for (const note of saveKeptIndexes()) process.stderr.write(`context-control: relevance index: ${note}\n`);
  }, SAVE_AFTER_MS);
  saveTimer.unref?.();
}
