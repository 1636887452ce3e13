import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isSecretPath } from '../core/redact/files';
import { estimateTokens, estimateTokensFromBytes } from '../core/estimate';
import { InputError } from '../core/errors';
import { resolveInWorkspace } from '../core/sources/guard';
import { loadPins, PINS_FILE, type Pin } from '../core/sources/snapshot';
import { Disposable } from './disposable';

const KEY = 'contextControl.pins';

/** A line range edit, 0-based like VS Code's: lines start..end were replaced by text with `newLines` line breaks. */
export interface LineEdit {
  startLine: number;
  endLine: number;
  newLines: number;
}

/** Where a pinned range (1-based, inclusive) lands after an edit. Undefined when the edit removed it whole. */
export function moveRange(start: number, end: number, edit: LineEdit): { start: number; end: number } | undefined {
  const s0 = start - 1;
  const e0 = end - 1;
  const delta = edit.newLines - (edit.endLine - edit.startLine);
  if (edit.startLine > e0) return { start, end };
  if (edit.endLine < s0) return { start: start + delta, end: end + delta };
  if (edit.startLine <= s0 && edit.endLine >= e0 && edit.newLines === 0 && edit.endLine > edit.startLine) return undefined;
  const newStart = edit.startLine < s0 ? edit.startLine + 1 : start;
  return { start: newStart, end: Math.max(newStart, end + delta) };
}

/** Pins persist per workspace (workspaceState). Selection pins follow edits; file pins read the file when assembled. */
export class PinStore extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;

  private readonly rootOf: () => string | undefined;

  /**
   * `root`: the folder, or (multi-root) a function giving the followed folder; `keyOf`: where that folder's pins are
   * kept in the memento (one list per folder).
   */
  constructor(
    private readonly memento: vscode.Memento,
    root: string | undefined | (() => string | undefined),
    private readonly keyOf: (root: string | undefined, base: string) => string = (_root, base) => base,
  ) {
    super();
    this.rootOf = typeof root === 'function' ? root : () => root;
    this._register(vscode.workspace.onDidChangeTextDocument((e) => this.follow(e)));
  }

  private get root(): string | undefined {
    return this.rootOf();
  }

  /** The followed folder changed: its own pins now show. */
  folderChanged(): void {
    this.emitter.fire();
  }

  list(): Pin[] {
    return this.memento.get<Pin[]>(this.keyOf(this.root, KEY), []);
  }

  private async save(pins: Pin[]): Promise<void> {
    await this.memento.update(this.keyOf(this.root, KEY), pins);
    this.mirror(pins);
    this.emitter.fire();
  }

  /**
   * In a trusted workspace the pins are also written to `.context/pins.json`, the file `ctxctl` reads, so the CLI
   * and CI assemble the same request as the editor (and the file can be committed to share mandatory blocks).
   */
  private mirror(pins: Pin[]): void {
    if (!this.root || !vscode.workspace.isTrusted) return;
    const file = path.join(this.root, PINS_FILE);
    if (pins.length === 0) {
      // No pins left: the file goes, rather than staying behind holding `[]`.
      fs.rmSync(file, { force: true });
      return;
    }
    const text = JSON.stringify(pins.map(({ id, source, startLine, endLine, text, label }) => ({ id, source, startLine, endLine, text, label })), null, 2) + '\n';
    // Through the workspace guard: never through a link (`.context` linked elsewhere), into a FIFO or a hard-linked file.
    const target = resolveInWorkspace(PINS_FILE, { root: this.root, access: 'write', mayBeMissing: true });
    if (!target.ok) {
      void vscode.window.showWarningMessage(`Context Control: ${PINS_FILE} not written for the CLI: ${target.why}`);
      return;
    }
    try {
      if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    } catch (e) {
      void vscode.window.showWarningMessage(`Context Control: could not write ${PINS_FILE} for the CLI: ${(e as Error).message}`);
    }
  }

  /** Pins already in `.context/pins.json` (written by another machine or committed) are adopted on first use. */
  adoptWorkspacePins(): void {
    if (!this.root || this.list().length > 0) return;
    try {
      const pins = loadPins(this.root);
      if (pins.length > 0) void this.memento.update(this.keyOf(this.root, KEY), pins).then(() => this.emitter.fire());
    } catch (e) {
      void vscode.window.showWarningMessage(`Context Control: ${e instanceof InputError ? e.toString() : (e as Error).message}`);
    }
  }

  relative(uri: vscode.Uri): string {
    return vscode.workspace.asRelativePath(uri, false);
  }

  async pinSelection(editor: vscode.TextEditor): Promise<Pin | undefined> {
    const sel = editor.selection;
    if (sel.isEmpty) return undefined;
    const startLine = sel.start.line + 1;
    const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
    const text = editor.document.getText(new vscode.Range(startLine - 1, 0, endLine - 1, Number.MAX_SAFE_INTEGER));
    const source = this.relative(editor.document.uri);
    const pin: Pin = { id: crypto.randomUUID(), source, startLine, endLine, text, label: firstWords(text) };
    await this.save([...this.list(), pin]);
    return pin;
  }

  /** `id`: the one the pin-size question's trial assembled with (its figures are then the request's). */
  async pinFile(uri: vscode.Uri, id: string = crypto.randomUUID()): Promise<Pin | undefined> {
    const source = this.relative(uri);
    if (isSecretPath(source)) {
      void vscode.window.showWarningMessage(`Context Control: ${source} looks like a secret file (keys, tokens, .env): it is never sent, so it cannot be pinned.`);
      return undefined;
    }
    const existing = this.list().find((p) => p.source === source && p.startLine === undefined);
    if (existing) return existing;
    const pin: Pin = { id, source, text: '', label: source };
    await this.save([...this.list(), pin]);
    return pin;
  }

  async unpin(id: string): Promise<void> {
    await this.save(this.list().filter((p) => p.id !== id));
  }

  /** A pin's tokens before it is counted: its text, or a whole file's size (nothing read). */
  estimate(pin: Pin): number {
    if (pin.startLine !== undefined || !this.root) return estimateTokens(pin.text);
    try {
      return estimateTokensFromBytes(fs.statSync(path.join(this.root, pin.source)).size, pin.source);
    } catch {
      return 0;
    }
  }

  at(uri: vscode.Uri, line: number): Pin | undefined {
    const source = this.relative(uri);
    return this.list().find((p) => p.source === source && p.startLine !== undefined && line + 1 >= p.startLine && line + 1 <= (p.endLine ?? p.startLine));
  }

  /** Pins with their current text: whole-file pins read the open document or the disk; an unreadable one says so. */
  resolved(read: (source: string) => string | undefined): Pin[] {
    return this.list().map((p) => {
      if (p.startLine !== undefined) return p;
      if (isSecretPath(p.source)) return { ...p, text: '', missing: 'a secret file (by name) is never sent' };
      const text = read(p.source);
      return text === undefined ? { ...p, text: '', missing: 'the file was moved, deleted or is outside the workspace' } : { ...p, text };
    });
  }

  private follow(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0) return;
    const source = this.relative(e.document.uri);
    const pins = this.list();
    let changed = false;
    const next: Pin[] = [];
    for (const pin of pins) {
      if (pin.source !== source || pin.startLine === undefined) {
        next.push(pin);
        continue;
      }
      let range: { start: number; end: number } | undefined = { start: pin.startLine, end: pin.endLine ?? pin.startLine };
      for (const c of e.contentChanges) {
        if (!range) break;
        range = moveRange(range.start, range.end, { startLine: c.range.start.line, endLine: c.range.end.line, newLines: (c.text.match(/\n/g) ?? []).length });
      }
      changed = true;
      if (!range) continue;
      const text = e.document.getText(new vscode.Range(range.start - 1, 0, range.end - 1, Number.MAX_SAFE_INTEGER));
      next.push({ ...pin, startLine: range.start, endLine: range.end, text });
    }
    if (changed) void this.save(next);
  }
}

function firstWords(text: string): string {
  const line = text.split('\n').find((l) => l.trim() && !/^(-{3,}|\+{3,}|[#/*\s-]*)$/.test(l.trim())) ?? '';
  const clean = line.trim().replace(/\s+/g, ' ');
  return clean.length > 60 ? clean.slice(0, 59) + '…' : clean;
}

/** Gutter marks on pinned ranges, and the `contextControl.cursorInPin` context key for the editor menu. */
export class PinDecorations extends Disposable {
  private readonly type: vscode.TextEditorDecorationType;

  constructor(
    private readonly store: PinStore,
    iconPath: vscode.Uri,
  ) {
    super();
    this.type = this._register(
      vscode.window.createTextEditorDecorationType({
        gutterIconPath: iconPath,
        gutterIconSize: 'contain',
        isWholeLine: true,
        overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.infoForeground'),
        overviewRulerLane: vscode.OverviewRulerLane.Left,
        backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
      }),
    );
    this._register(store.onDidChange(() => this.paintAll()));
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => this.paintAll()));
    this._register(vscode.window.onDidChangeTextEditorSelection((e) => this.updateContext(e.textEditor)));
    this._register(vscode.window.onDidChangeActiveTextEditor((e) => e && this.updateContext(e)));
    this.paintAll();
  }

  private paintAll(): void {
    for (const editor of vscode.window.visibleTextEditors) this.paint(editor);
    if (vscode.window.activeTextEditor) this.updateContext(vscode.window.activeTextEditor);
  }

  private paint(editor: vscode.TextEditor): void {
    const source = this.store.relative(editor.document.uri);
    const ranges = this.store
      .list()
      .filter((p) => p.source === source && p.startLine !== undefined)
      .map((p) => {
        const hover = new vscode.MarkdownString(`**Pinned as a mandatory block** — sent with every request, never cut.\n\n[Unpin](command:contextControl.unpin?${encodeURIComponent(JSON.stringify([p.id]))})`);
        hover.isTrusted = { enabledCommands: ['contextControl.unpin'] };
        return { range: new vscode.Range((p.startLine ?? 1) - 1, 0, (p.endLine ?? p.startLine ?? 1) - 1, 0), hoverMessage: hover };
      });
    editor.setDecorations(this.type, ranges);
  }

  private updateContext(editor: vscode.TextEditor): void {
    const inPin = !!this.store.at(editor.document.uri, editor.selection.active.line);
    void vscode.commands.executeCommand('setContext', 'contextControl.cursorInPin', inPin);
  }
}
