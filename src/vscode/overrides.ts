import * as path from 'node:path';
import * as vscode from 'vscode';
import { InputError } from '../core/errors';
import { OVERRIDES_FILE, readOverridesFile, setOverride, writeOverridesFile, type OverrideAction } from '../core/sources/overrides';
import type { AssemblyService } from './assembly';
import type { PinStore } from './pins';
import { confirmPinSize, fileBytes, withPinProgress } from './pin-size';
import type { Node } from './views/tree';

/** What the item commands accept: a tree node (Index, Manifest), a Uri (explorer, editor) or a workspace path. */
export type ItemArg = Node | vscode.Uri | string | undefined;

/** The workspace path an item stands for, or undefined (a builtin block, a session event, nothing). */
export function itemPath(arg: ItemArg, root: string | undefined): string | undefined {
  if (arg === undefined) {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri ? itemPath(uri, root) : undefined;
  }
  if (arg instanceof vscode.Uri) {
    if (!root || arg.scheme !== 'file') return undefined;
    const rel = path.relative(root, arg.fsPath);
    return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join('/');
  }
  if (typeof arg === 'string') return arg.replace(/#.*$/, '') || undefined;
  return arg.open?.source.replace(/#.*$/, '');
}

const VERB: Record<OverrideAction, string> = { include: 'included in', exclude: 'excluded from' };

/**
 * Include / Exclude / Clear override, and Pin, Open and Copy for any item of the Index and Manifest views. The
 * overrides live in `.context/overrides.json`, the file `ctxctl preview` reads too (sources/overrides.ts).
 */
export function registerOverrides(context: vscode.ExtensionContext, service: AssemblyService, pins: PinStore): void {
  const root = service.workspaceRoot;
  const register = (id: string, fn: (arg: ItemArg) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  const target = (arg: ItemArg) => {
    const p = itemPath(arg, root);
    if (!p || !root) void vscode.window.showInformationMessage('Context Control: this item is not a workspace file; nothing to change.');
    return root && p ? p : undefined;
  };
  const change = async (arg: ItemArg, action: OverrideAction | undefined) => {
    const p = target(arg);
    if (!p || !root) return;
    try {
      writeOverridesFile(root, setOverride(readOverridesFile(root).overrides, p, action));
    } catch (e) {
      const why = e instanceof InputError ? e.toString() : (e as Error).message;
      void vscode.window.showErrorMessage(`Context Control: cannot change ${OVERRIDES_FILE}: ${why}`, 'Show Problems').then((c) => c && vscode.commands.executeCommand('contextControl.showProblems'));
      return;
    }
    const state = await service.run();
    // Said only when the request bears it out: a protected block stays in, whatever the exclude (see Problems).
    const stillSent = action === 'exclude' && state.kind === 'ok' && state.assembly.blocks.some((b) => b.source.replace(/#.*$/, '') === p);
    const message = stillSent ? `${p} is protected: it stays in the request (see Problems)` : action ? `${p} ${VERB[action]} the request` : `override of ${p} cleared`;
    vscode.window.setStatusBarMessage(`Context Control: ${message}`, 4000);
  };
  register('contextControl.include', (arg) => change(arg, 'include'));
  register('contextControl.exclude', (arg) => change(arg, 'exclude'));
  register('contextControl.clearOverride', (arg) => change(arg, undefined));
  register('contextControl.pinItem', async (arg) => {
    const p = target(arg);
    if (!p || !root) return;
    const uri = vscode.Uri.file(path.join(root, p));
    const id = await confirmPinSize(uri, p, service);
    if (!id) return;
    if (await pins.pinFile(uri, id)) await withPinProgress(p, fileBytes(uri), () => service.run());
  });
  register('contextControl.openTreeItem', (arg) => {
    const p = target(arg);
    const line = arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? arg.open?.line : undefined;
    if (p) return vscode.commands.executeCommand('contextControl.openItem', { source: p, line });
  });
  register('contextControl.copyItem', async (arg) => {
    const p = target(arg);
    if (!p) return;
    const state = service.state;
    const sent = state.kind === 'ok' ? state.assembly.blocks.find((b) => b.source.replace(/#.*$/, '') === p) : undefined;
    await vscode.env.clipboard.writeText(sent ? sent.text : p);
    vscode.window.setStatusBarMessage(sent ? `Context Control: copied the text sent for ${p}` : `Context Control: copied the path ${p} (not in this request)`, 4000);
  });
}
