/** Worker side: the operations the extension host asks for by name (ops-protocol.ts). No `vscode`. */
import { collect } from '../../core/chain/collect';
import { casePassed } from '../../core/compare/check-run';
import { ContextBudgetExceeded } from '../../core/errors';
import { withMaxInput } from '../../core/policy';
import { constraintsFrom } from '../../core/session/constraints';
import { resolveInWorkspace } from '../../core/sources/guard';
import type { Snapshot } from '../../core/sources/snapshot';
import { CHAT_SESSION_SOURCE } from '../chat/history';
import { runCompare } from './compare-run';
import { renderContext } from './render-context';
import { assembleRequest, engineFor, engineRoots, findWindow, keepEngines, load, tokenizerOf } from './load';
import { pinTrial } from './pin-trial';
import type { OpArgs, OpName, OpResult } from './ops-protocol';

type Handlers = { [K in OpName]: (args: OpArgs<K>, onSnapshot: (s: Snapshot) => void) => OpResult<K> | Promise<OpResult<K>> };

export const handlers: Handlers = {
  assemble: (args, onSnapshot) => assembleRequest(args, onSnapshot),
  pinTrial: (args) => pinTrial(args),
  findWindow: (args) => findWindow(args.root, args.ticket),
  renderContext: (a) => {
    const snapshot = load(a.snapshot, a.patch);
    try {
      const assembly = engineFor(a.snapshot.root).assemble({ ...snapshot, policy: withMaxInput(snapshot.policy, a.maxInput) }, { model: a.model, encoding: a.encoding, shape: 'vscode-lm', tokenizer: tokenizerOf(a), summaries: false });
      return { text: renderContext(assembly.blocks, assembly.manifest) };
    } catch (e) {
      if (!(e instanceof ContextBudgetExceeded)) throw e;
      return { refused: { sources: e.blocks.map((b) => b.source), mandatoryTokens: e.mandatoryTokens, maxInput: e.maxInput } };
    }
  },
  readDocument: (a) => {
    const result = engineFor(a.snapshot.root).readDocument(load(a.snapshot), a.input, { tokenizer: tokenizerOf(a), maxTokens: a.maxTokens });
    const where = result.block ? `${result.block.source}${result.block.meta.heading ? `, section "${result.block.meta.heading}"` : ''}\n\n` : '';
    return { text: `${where}${result.text}`, found: !!result.block };
  },
  searchWorkspace: (a) => ({ text: engineFor(a.snapshot.root).search(load(a.snapshot), a.query, a.glob).text }),
  inspectOffloaded: (a) => {
    return { text: engineFor(a.snapshot.root).inspect(load(a.snapshot), tokenizerOf(a), a.path, a.op, a.pattern, a.lines, a.context).text };
  },
  count: (a) => tokenizerOf(a).count(a.text),
  workspaceFile: (a) => {
    // Through the workspace guard (core/sources/guard.ts): a link leading outside, a secret, a FIFO: not even its size.
    const d = resolveInWorkspace(a.path.replace(/#.*$/, '').trim(), { root: a.root, mayBeMissing: true });
    if (!d.ok) return { refused: d.kind === 'outside' || d.kind === 'link-outside' || d.kind === 'empty' ? 'outside the workspace' : d.why };
    return { rel: d.rel, size: d.size };
  },
  compactPreview: (a) => {
    const snapshot = load(a.snapshot, a.patch);
    return engineFor(a.snapshot.root).compact({
      events: a.patch.session,
      source: CHAT_SESSION_SOURCE,
      policy: snapshot.policy,
      records: [],
      constraints: constraintsFrom(collect(snapshot).value.blocks),
      knownSources: snapshot.files.map((f) => f.path),
      tokenizer: tokenizerOf(a),
    });
  },
  compare: (a) => runCompare(a),
  keepFolders: (a) => ({ evicted: keepEngines(a.roots), kept: engineRoots() }),
  runCase: async (a) => {
    const result = await engineFor(a.options.root).check(a.case, a.options);
    return { ...result, passed: casePassed(result) };
  },
};
