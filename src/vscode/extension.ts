import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { num } from '../core/report/trace';
import { loadedEncodings } from '../core/tokens';
import { AssemblyService } from './assembly';
import { registerChat } from './chat/register';
import { ChecksTests } from './checks-tests';
import { registerCommands } from './commands';
import { registerCompare } from './compare';
import { registerSessionCommands } from './session-commands';
import { registerControl } from './control';
import { PinDecorations, PinStore } from './pins';
import { findModel } from './lm';
import { readSettings, SECTION } from './settings';
import { indexNodes } from './views/indexTree';
import { manifestNodes } from './views/manifestTree';
import { RequestPanel } from './views/panel';
import { pinnedNodes } from './views/pinnedTree';
import { BudgetStatusBar } from './views/statusBar';
import { NodeTree } from './views/tree';

const TASK_KEY = 'contextControl.task';
/** The first assembly waits for the window to settle: activation itself never loads an encoding. */
const FIRST_RUN_DELAY_MS = 1500;

/** The only composition root of the host layer. */
export function activate(context: vscode.ExtensionContext) {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const storageDir = (context.storageUri ?? context.globalStorageUri).fsPath;
  const sub = <T extends vscode.Disposable>(d: T): T => {
    context.subscriptions.push(d);
    return d;
  };

  const pins = sub(new PinStore(context.workspaceState, root));
  pins.adoptWorkspacePins();
  const readPinned = (source: string) => {
    const open = vscode.workspace.textDocuments.find((d) => vscode.workspace.asRelativePath(d.uri, false) === source);
    if (open) return open.getText();
    try {
      return root ? fs.readFileSync(path.join(root, source), 'utf8') : undefined;
    } catch {
      return undefined;
    }
  };
  const task = {
    current: () => context.workspaceState.get<string>(TASK_KEY) || undefined,
    set: (text: string) => context.workspaceState.update(TASK_KEY, text),
  };
  const workerScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'assemble-worker.js').fsPath;
  let modelMaxInput: number | undefined;
  const service = sub(new AssemblyService(workerScript, root, () => pins.resolved(readPinned), task, storageDir, () => modelMaxInput));
  /** With vscode.lm, the chosen model's maxInputTokens narrows the envelope of the preview too. */
  const refreshModelLimit = async () => {
    const s = readSettings();
    const before = modelMaxInput;
    modelMaxInput = s.provider === 'vscode-lm' ? (await findModel(s.model).catch(() => undefined))?.maxInputTokens : undefined;
    if (before !== modelMaxInput) service.schedule();
  };

  const indexTree = sub(new NodeTree());
  const manifestTree = sub(new NodeTree());
  const pinnedTree = sub(new NodeTree());
  sub(vscode.window.createTreeView('contextControl.index', { treeDataProvider: indexTree, showCollapseAll: true }));
  const manifestView = sub(vscode.window.createTreeView('contextControl.manifest', { treeDataProvider: manifestTree, showCollapseAll: true }));
  sub(vscode.window.createTreeView('contextControl.pinned', { treeDataProvider: pinnedTree }));
  const pinTokens = new Map<string, number>();
  const refreshTrees = () => {
    const state = service.state;
    indexTree.set(indexNodes(state));
    manifestTree.set(manifestNodes(state));
    pinTokens.clear();
    for (const b of state.kind === 'ok' ? state.assembly.blocks : state.kind === 'refused' ? state.error.blocks : []) if (b.kind === 'pinned') pinTokens.set(b.id.replace(/^pinned:/, ''), b.tokens);
    pinnedTree.set(pinnedNodes(pins.list(), (p) => pinTokens.get(p.id), (p) => pins.estimate(p)));
    manifestView.message = state.kind === 'ok' ? `Last assembled ${state.at.toLocaleTimeString()} · ${num(state.assembly.manifest.budget.final)} / ${num(state.assembly.manifest.budget.max_input)} tokens` : undefined;
  };
  sub(service.onDidChange(refreshTrees));
  sub(pins.onDidChange(refreshTrees));

  const statusBar = sub(new BudgetStatusBar(service));
  sub(new PinDecorations(pins, vscode.Uri.joinPath(context.extensionUri, 'media', 'pin.svg')));

  const commands = registerCommands({ context, service, pins, task, storageDir });
  registerSessionCommands(context, service, () => pins.resolved(readPinned));
  const control = registerControl(context, service, pins);
  const panel = sub(new RequestPanel(context.extensionUri, service, commands.panelActions));
  sub(vscode.window.registerWebviewViewProvider(RequestPanel.viewId, panel, { webviewOptions: { retainContextWhenHidden: true } }));
  commands.attachPanel(panel);
  const chat = registerChat(context, service, storageDir, panel);
  const comparison = registerCompare({ context, root, panel: () => panel, task: task.current, sessionFile: () => service.sessionStore.snapshotFile() });
  const checks = sub(new ChecksTests());
  void checks.discover();

  // Incremental re-assembly: files, settings and trust changes, debounced by the service.
  const watcher = sub(vscode.workspace.createFileSystemWatcher('**/*'));
  const onFile = (uri: vscode.Uri) => {
    const rel = vscode.workspace.asRelativePath(uri, false);
    if (rel.startsWith('.git/') || rel.includes('node_modules/') || rel.startsWith('.context/offload/')) return;
    service.schedule();
  };
  sub(watcher.onDidChange(onFile));
  sub(watcher.onDidCreate(onFile));
  sub(watcher.onDidDelete(onFile));
  sub(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) {
        service.schedule();
        void refreshModelLimit();
      }
    }),
  );
  sub(vscode.workspace.onDidGrantWorkspaceTrust(() => service.schedule()));
  // The active file is a relevance signal: switching files re-ranks (debounced; the index is only updated, not rebuilt).
  sub(vscode.window.onDidChangeActiveTextEditor(() => service.schedule()));

  sub(vscode.lm.onDidChangeChatModels(() => void refreshModelLimit()));
  void refreshModelLimit();

  const encodingsAtActivation = loadedEncodings();
  const first = setTimeout(() => void service.run(), FIRST_RUN_DELAY_MS);
  sub({ dispose: () => clearTimeout(first) });

  /** The extension's API, used by the integration tests and available to other extensions. */
  return {
    encodingsAtActivation,
    loadedEncodings,
    service,
    pins,
    statusBar: statusBar.item,
    trees: { index: indexTree, manifest: manifestTree, pinned: pinnedTree },
    panel,
    chat,
    comparison,
    checks,
    control,
  };
}

export function deactivate() {
  // Everything is disposed through context.subscriptions.
}
