import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { assemble, type Assembly } from '../../../src/core/chain/assemble';
import { isProtected } from '../../../src/core/chain/enforce';
import { ContextBudgetExceeded } from '../../../src/core/errors';
import { readOverridesFile, setOverride, writeOverridesFile, overrideFor } from '../../../src/core/sources/overrides';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { actionsFor, OVERRIDABLE_KINDS, type ActionItem, type ItemAction } from '../../../src/view-model/item-actions';
import { notSentOf } from '../../../src/view-model/not-sent';
import { counter, EXAMPLE } from '../helpers';

/**
 * Every action the panel offers, on every kind of item of the example (sent and not sent, at the default window and
 * at one where the budget drops evidence), applied through the same files the panel's commands write: the request
 * must change as the action announces. Open, Copy, Edit and the policy line change nothing and are checked for
 * where they are offered.
 */
const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));
const NOW = () => new Date('2026-01-01T00:00:00Z');
const PIN = { id: 'p1', source: 'docs/runbook.md', text: fs.readFileSync(path.join(EXAMPLE, 'docs/runbook.md'), 'utf8'), label: 'runbook' };

function workspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctl-actions-'));
  roots.push(root);
  fs.cpSync(EXAMPLE, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}offload`) });
  fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([PIN]));
  return root;
}

function run(root: string, window?: number): Assembly | ContextBudgetExceeded {
  const snapshot = loadSnapshot({ root, task: path.join(root, 'ticket.md'), changes: false });
  if (window) snapshot.policy = { ...snapshot.policy, envelope: { ...snapshot.policy.envelope, window } };
  try {
    return assemble(snapshot, { tokenizer: counter, now: NOW });
  } catch (e) {
    if (e instanceof ContextBudgetExceeded) return e;
    throw e;
  }
}

const fileOf = (s: string) => s.replace(/#.*$/, '');
const sent = (a: Assembly, source: string) => a.blocks.some((b) => fileOf(b.source) === source);

/** Every item the panel lists for an assembly, as the panel describes it to actionsFor. */
function itemsOf(a: Assembly, root: string): ActionItem[] {
  const overrides = readOverridesFile(root).overrides;
  const o = (s: string) => overrideFor(overrides, s);
  const blocks = a.blocks.map((b) => ({ source: b.source, kind: b.kind, sent: true, protected: isProtected(b), ...(b.id.startsWith('pinned:') ? { pinId: b.id.slice(7) } : {}), ...(o(b.source) ? { override: o(b.source) } : {}) }));
  const notSent = notSentOf(a.manifest).map((n) => ({ source: n.source, kind: n.kind, sent: false, protected: false, ...(o(n.source) ? { override: o(n.source) } : {}) }));
  return [...blocks, ...notSent];
}

const CHANGES = new Set<ItemAction>(['include', 'exclude', 'reset', 'pin', 'unpin']);
const stateFiles = (root: string) => ['overrides.json', 'pins.json'].map((f) => (fs.existsSync(path.join(root, '.context', f)) ? fs.readFileSync(path.join(root, '.context', f), 'utf8') : ''));

function apply(root: string, item: ActionItem, action: ItemAction): void {
  const write = (a: 'include' | 'exclude' | undefined) => writeOverridesFile(root, setOverride(readOverridesFile(root).overrides, item.source, a));
  if (action === 'include' || action === 'exclude') write(action);
  else if (action === 'reset') write(undefined);
  else if (action === 'pin') fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([PIN, { id: 'p2', source: item.source, text: fs.readFileSync(path.join(root, item.source), 'utf8') }]));
  else if (action === 'unpin') fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([PIN].filter((p) => p.id !== item.pinId)));
}

/** What the request must show after the action, or why it does not. */
function check(after: Assembly | ContextBudgetExceeded, item: ActionItem, action: ItemAction): void {
  const what = `${action} on ${item.kind} ${item.source}`;
  if (after instanceof ContextBudgetExceeded) {
    // An include or a pin that cannot fit refuses the call, naming it: never a silent no-op.
    assert.ok(action === 'include' || action === 'pin', `${what}: refused`);
    assert.ok(after.blocks.some((b) => fileOf(b.source) === item.source), `${what}: the refusal names it`);
    return;
  }
  const reasonOf = (a: Assembly, section: 'selected' | 'rejected') => a.manifest[section].find((d) => fileOf(d.source) === item.source)?.reason;
  switch (action) {
    case 'include':
      assert.ok(sent(after, item.source), `${what}: sent`);
      assert.equal(reasonOf(after, 'selected'), 'included by you', what);
      break;
    case 'exclude':
      assert.equal(sent(after, item.source), false, `${what}: not sent`);
      assert.equal(reasonOf(after, 'rejected'), 'excluded by you', what);
      break;
    case 'reset':
      assert.notEqual(reasonOf(after, 'selected'), 'included by you', what);
      assert.notEqual(reasonOf(after, 'rejected'), 'excluded by you', what);
      break;
    case 'pin':
      assert.ok(after.blocks.some((b) => b.kind === 'pinned' && fileOf(b.source) === item.source), `${what}: pinned block sent`);
      break;
    case 'unpin':
      assert.equal(after.blocks.some((b) => b.id === `pinned:${item.pinId}`), false, `${what}: pinned block gone`);
      break;
  }
}

describe('every panel action does what it says (the chain, on the example)', () => {
  for (const window of [undefined, 6500]) {
    it(`walks every action on every kind of item${window ? ` at a ${window}-token window` : ''}`, () => {
      const root = workspace();
      const base = run(root, window);
      assert.ok(!(base instanceof ContextBudgetExceeded));
      const items = itemsOf(base, root);
      const kinds = new Set(items.map((i) => i.kind));
      for (const k of ['tool_result', 'source_code', 'decision', 'document', 'agents_md', 'pinned', 'current_task', 'system_instructions']) assert.ok(kinds.has(k), `the example has a ${k} item`);
      let walked = 0;
      // At the small window the sent blocks are those of the default one: its own items are what the budget dropped.
      for (const item of window ? items.filter((i) => !i.sent) : items) {
        const actions = actionsFor(item);
        if (item.protected) assert.deepEqual(actions.filter((a) => a === 'include' || a === 'exclude' || a === 'reset'), [], `${item.source} is protected: no include or exclude`);
        if (OVERRIDABLE_KINDS.includes(item.kind) && !item.protected && !item.source.includes('#')) assert.ok(actions.includes('include') && actions.includes('exclude'), `${item.kind} ${item.source} offers include and exclude`);
        for (const action of actions) {
          if (!CHANGES.has(action)) {
            // Open, Copy, Edit rule and the policy line write neither overrides nor pins: nothing to re-assemble.
            const files = stateFiles(root);
            apply(root, item, action);
            assert.deepEqual(stateFiles(root), files, `${action} on ${item.source} writes nothing`);
            if (action === 'edit') assert.ok(item.protected && (item.kind === 'agents_md' || item.kind === 'current_task'), `edit on ${item.source}`);
            if (action === 'policy') assert.ok(item.protected && item.source.startsWith('builtin:'), `policy on ${item.source}`);
            walked++;
            continue;
          }
          apply(root, item, action);
          const after = run(root, window);
          check(after, item, action);
          // Then back to automatic, through Reset, which the panel now offers on it.
          if (action === 'include' || action === 'exclude') {
            if (!(after instanceof ContextBudgetExceeded)) {
              const again = itemsOf(after, root).find((i) => fileOf(i.source) === item.source && i.override === action);
              assert.ok(again && actionsFor(again).includes('reset'), `${action} on ${item.source}: the item offers Reset to automatic`);
            }
            apply(root, item, 'reset');
            const reset = run(root, window);
            assert.ok(!(reset instanceof ContextBudgetExceeded));
            assert.deepEqual(reset.blocks.map((b) => b.id), base.blocks.map((b) => b.id), `reset after ${action} on ${item.source}: the request is automatic again`);
          }
          if (action === 'pin' || action === 'unpin') fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([PIN]));
          walked++;
        }
      }
      assert.ok(walked > (window ? 20 : 40), `walked ${walked} actions`);
    });
  }
});
