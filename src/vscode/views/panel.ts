import { signalRows } from './signals';
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { InputError } from '../../core/errors';
import { zoneOf } from '../../core/report/manifest';
import { Disposable } from '../disposable';
import { isPanelAction, isPanelMessage, type HostMessage, type PanelMessage, type PanelPreview, type PanelProblem } from '../protocol';
import { changeProvider, updateSettings } from '../setting-scope';
import type { Settings } from '../settings';
import type { AssemblyState, Change } from '../state';
import { runProviderFix } from '../provider-toast';
import { statusFor } from './statusBar';
import { detailsFor, handlePanelAction, type PanelActionTarget } from './panel-actions';

export const PROVIDERS = ['dry-run', 'openai', 'anthropic', 'vscode-lm'];
/** Messages kept for a panel that is not open yet (a streamed answer, at most this many pieces). */
const MAX_QUEUE = 2000;

/** What the panel shows for a state: pure, so the integration tests can check it without a browser. */
export function previewFor(state: AssemblyState, current: Settings): PanelPreview {
  const settings = state.kind === 'empty' ? current : state.settings;
  const base: PanelPreview = { status: 'ok', zones: [], blocks: [], warnings: [], trace: '', model: settings.model, provider: settings.provider, details: detailsFor(state) };
  switch (state.kind) {
    case 'empty':
      return { ...base, status: 'error', message: state.reason };
    case 'error':
      return { ...base, status: 'error', message: state.error.message, ...problemOf(state.error) };
    case 'refused':
      return {
        ...base,
        status: 'refused',
        message: state.error.message,
        final: state.error.mandatoryTokens,
        maxInput: state.error.maxInput,
        mandatory: state.error.mandatoryTokens,
        blocks: state.error.blocks.map((b) => ({ id: b.id, kind: b.kind, source: b.source, zone: 'protected', tokens: b.tokens, reason: 'mandatory', text: '' })),
      };
    case 'ok': {
      const m = state.assembly.manifest;
      const reasons = new Map(m.selected.map((s) => [`${s.kind}:${s.source}`, s.reason]));
      const compacted = m.compacted[0];
      const summary = state.assembly.blocks.find((b) => b.kind === 'session_summary');
      return {
        ...base,
        status: statusFor(state).level === 'warning' ? 'warning' : 'ok',
        final: m.budget.final,
        maxInput: m.budget.max_input,
        mandatory: m.budget.mandatory,
        zones: Object.entries(m.zones).map(([zone, tokens]) => ({ zone, tokens })),
        blocks: orderForPanel(state).map((b) => ({ id: b.id, kind: b.kind, source: b.source, zone: zoneOf(b), tokens: b.tokens, reason: reasons.get(`${b.kind}:${b.source}`) ?? '', text: state.view.wrapped[b.id] ?? b.text })),
        warnings: m.warnings.map((w) => `${[w.source, w.line].filter((x) => x !== undefined).join(':')}: ${w.message}`),
        signals: signalRows(m.task).map((r) => `${r.label}: ${r.values.join(', ')}`),
        trace: state.assembly.trace,
        session: m.session,
        compaction: compacted
          ? { events: Number(compacted.events ?? 0), range: String(compacted.range ?? ''), tokensBefore: Number(compacted.tokens_before ?? 0), tokensAfter: Number(compacted.tokens ?? 0), label: compacted.reason, summary: summary?.text ?? '' }
          : undefined,
      };
    }
  }
}

/** A workspace file's error (policy, pins, overrides, checks: an InputError with its file) as the panel shows it. */
export function problemOf(error: Error): { problem?: PanelProblem } {
  if (!(error instanceof InputError) || !error.file || error.file === 'workspace' || path.isAbsolute(error.file)) return {};
  return { problem: { file: error.file, line: error.line ?? 1, ...(error.column ? { column: error.column } : {}), message: error.message, ...(error.fix ? { fix: error.fix.title } : {}) } };
}

/** Blocks in the order they appear in the request. */
function orderForPanel(state: Extract<AssemblyState, { kind: 'ok' }>) {
  const order = new Map<string, number>();
  state.assembly.neutral.messages.forEach((msg, i) => msg.blocks.forEach((id, j) => order.has(id) || order.set(id, i * 1000 + j)));
  const rank = (id: string, kind: string) => (kind === 'system_instructions' ? -2 : kind === 'tool_definitions' ? -1 : (order.get(id) ?? 1e9));
  return [...state.assembly.blocks].sort((a, b) => rank(a.id, a.kind) - rank(b.id, b.kind));
}

export interface PanelActions {
  preview(task: string): Promise<void>;
  send(task: string): Promise<void>;
  cancel(): void;
  setTask(task: string): Promise<void>;
  copyRequest(): Promise<void>;
  exportRequest(): Promise<void>;
  openSource(source: string, line?: number): Promise<void>;
  taskText(): string;
  policies(): Promise<string[]>;
  /** Find the window that sends what this assembly dropped (fit-search.ts); true when the state now has it. */
  findWindow(state: AssemblyState): Promise<boolean>;
}

/**
 * What the panel is given: the actions, the state it shows, and the events it listens to. The panel is never
 * handed back to its controller: what it should show arrives through `onDidPost` and `onDidShow`.
 */
export interface PanelController extends PanelActions {
  current(): AssemblyState;
  settings(): Settings;
  /** An assembly is under way (the panel shows its progress when it opens during one). */
  busy(): boolean;
  readonly onDidChange: vscode.Event<Change>;
  /** Messages for the webview: busy, send progress, a comparison. */
  readonly onDidPost: vscode.Event<HostMessage>;
  /** Another assembly to show (a chat request's) until the panel's own next run. */
  readonly onDidShow: vscode.Event<AssemblyState>;
  /** What the block actions (Include, Exclude, Pin, Open, Copy) act on. */
  readonly actionTarget: PanelActionTarget;
}

/** The side panel: task box, provider/model/policy pickers, preview, send, trace and compaction preview. */
export class RequestPanel extends Disposable implements vscode.WebviewViewProvider {
  static readonly viewId = 'contextControl.panel';
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private readonly queue: HostMessage[] = [];
  /** The last comparison posted, for tests and for a panel that reopens. */
  lastCompare: Extract<HostMessage, { type: 'compare' }> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly actions: PanelController,
  ) {
    super();
    this._register(
      actions.onDidChange((c) => {
        if (c === 'settings') void this.postInit();
        if (c !== 'result') return;
        this.shown = undefined;
        this.post({ type: 'preview', preview: previewFor(actions.current(), actions.settings()) });
      }),
    );
    this._register(actions.onDidPost((m) => this.post(m)));
    this._register(actions.onDidShow((s) => this.show(s)));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    view.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media'), vscode.Uri.joinPath(this.extensionUri, 'dist')] };
    view.webview.html = this.html(view.webview);
    // Listeners belong to this view: they go when it goes, and a re-resolved view gets fresh ones.
    const listeners = [view.webview.onDidReceiveMessage((m: unknown) => this.receive(m))];
    listeners.push(
      view.onDidDispose(() => {
        for (const l of listeners) l.dispose();
        if (this.view === view) {
          this.view = undefined;
          this.ready = false;
        }
      }),
    );
  }

  /** Another assembly shown in the panel (a chat request's) until the panel's own next run. */
  private shown: AssemblyState | undefined;

  show(state: AssemblyState): void {
    this.shown = state;
    this.post({ type: 'preview', preview: previewFor(state, this.actions.settings()) });
  }

  get visible(): boolean {
    return !!this.view?.visible;
  }

  /** The file the last dry run wrote, the only one the Answer tab's link may open. */
  private lastFile: string | undefined;

  post(message: HostMessage): void {
    if (message.type === 'sendDone') this.lastFile = message.file;
    if (!this.view || !this.ready) {
      // The panel asks for the current preview when it is ready; a stale busy flag would only lock its buttons.
      if (message.type !== 'preview' && message.type !== 'busy' && this.queue.length < MAX_QUEUE) this.queue.push(message);
      if (message.type === 'compare') this.lastCompare = message;
      return;
    }
    if (message.type === 'compare') this.lastCompare = message;
    void this.view.webview.postMessage(message);
  }

  private async postInit(): Promise<void> {
    const s = this.actions.settings();
    this.post({
      type: 'init',
      settings: { provider: s.provider, model: s.model, policyPath: s.policyPath },
      providers: PROVIDERS,
      policies: await this.actions.policies(),
      task: this.actions.taskText(),
      trusted: vscode.workspace.isTrusted,
    });
  }

  private async receive(raw: unknown): Promise<void> {
    if (isPanelAction(raw)) return handlePanelAction(raw, this.actions.actionTarget);
    if (!isPanelMessage(raw)) return;
    const handlers: { [K in PanelMessage['type']]: (m: Extract<PanelMessage, { type: K }>) => unknown } = {
      ready: async () => {
        this.ready = true;
        await this.postInit();
        for (const m of this.queue.splice(0)) this.post(m);
        this.post({ type: 'preview', preview: previewFor(this.shown ?? this.actions.current(), this.actions.settings()) });
        if (this.actions.busy()) this.post({ type: 'busy', busy: true });
      },
      preview: (m) => this.actions.preview(m.task),
      send: (m) => this.actions.send(m.task),
      cancel: () => this.actions.cancel(),
      setTask: (m) => this.actions.setTask(m.task),
      setProvider: (m) => PROVIDERS.includes(m.provider) && changeProvider(m.provider, this.actions.settings().model),
      setModel: (m) => updateSettings(`the model ${m.model}`, { model: m.model }),
      setPolicy: (m) => !m.policyPath.split(/[\\/]/).includes('..') && updateSettings(`the policy ${m.policyPath}`, { policyPath: m.policyPath }),
      copyRequest: () => this.actions.copyRequest(),
      exportRequest: () => this.actions.exportRequest(),
      openSource: (m) => this.actions.openSource(m.source, m.line),
      providerFix: (m) => runProviderFix(m.fix),
      // Only the file the last dry run named: the webview's message is untrusted input.
      openFile: (m) => m.file === this.lastFile && vscode.window.showTextDocument(vscode.Uri.file(m.file), { preview: true }),
      applyFix: (m) => vscode.commands.executeCommand('contextControl.applyQuickFix', m.file),
      session: (m) => vscode.commands.executeCommand({ compact: 'contextControl.compactSession', edit: 'contextControl.editSummary', undo: 'contextControl.undoSummary' }[m.action]),
      compareSend: () => vscode.commands.executeCommand('contextControl.compareSend'),
      findWindow: async () => {
        const state = this.shown ?? this.actions.current();
        const search = state.kind === 'ok' ? state.fit?.ticket : undefined;
        if (search === undefined || !(await this.actions.findWindow(state))) return;
        const dropped = detailsFor(state)?.dropped;
        if (dropped) this.post({ type: 'dropped', search, dropped });
      },
    };
    try {
      await (handlers[raw.type] as (m: PanelMessage) => unknown)(raw);
    } catch (e) {
      void vscode.window.showErrorMessage(`Context Control: ${(e as Error).message}`);
    }
  }

  private html(webview: vscode.Webview): string {
    const nonce = crypto.randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'panel.css'));
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; font-src ${webview.cspSource}; img-src ${webview.cspSource} data:; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${style}" rel="stylesheet">
<title>Context Control</title>
</head>
<body>
<main id="app"></main>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }
}
