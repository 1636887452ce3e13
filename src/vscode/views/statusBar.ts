import * as vscode from 'vscode';
import { num } from '../../core/report/trace';
import type { AssemblyService, AssemblyState } from '../assembly';
import { Disposable } from '../disposable';

export const WARNING_RATIO = 0.9;

/** What the status bar shows for a state: pure, so tests can check the words and the colour. */
export function statusFor(state: AssemblyState): { text: string; level: 'ok' | 'warning' | 'error'; tooltip: string } {
  switch (state.kind) {
    case 'empty':
      return { text: '$(symbol-ruler) –', level: 'ok', tooltip: state.reason };
    case 'error':
      return { text: '$(error) context error', level: 'error', tooltip: `Context Control could not assemble the request:\n\n${state.error.message}` };
    case 'refused': {
      const e = state.error;
      const rows = e.blocks.map((b) => `| ${b.kind} | \`${b.source}\` | ${num(b.tokens)} |`).join('\n');
      return {
        text: `$(error) ${num(e.mandatoryTokens)} / ${num(e.maxInput)} refused`,
        level: 'error',
        tooltip: `**Refused:** the mandatory blocks need ${num(e.mandatoryTokens)} tokens but max_input is ${num(e.maxInput)}. Unpin a block or raise the envelope.\n\n| block | source | tokens |\n|---|---|---:|\n${rows}`,
      };
    }
    case 'ok': {
      const b = state.assembly.manifest.budget;
      const ratio = b.final / b.max_input;
      // The fill is meant to use the room (the evidence zone grows into what is free), so a full request is no
      // warning; the protected blocks are: they cannot be cut, and past max_input the call is refused.
      const protectedRatio = b.mandatory / b.max_input;
      const close = protectedRatio >= WARNING_RATIO;
      const zones = Object.entries(state.assembly.manifest.zones)
        .filter(([, n]) => n > 0)
        .map(([z, n]) => `| ${z} | ${num(n)} |`)
        .join('\n');
      return {
        text: `$(symbol-ruler) ${num(b.final)} / ${num(b.max_input)}`,
        level: close ? 'warning' : 'ok',
        tooltip:
          `**Context Control** — ${num(b.final)} of ${num(b.max_input)} input tokens (${Math.round(ratio * 100)} %)` +
          `${close ? ` — close to the limit: the protected blocks alone take ${num(b.mandatory)} (${Math.round(protectedRatio * 100)} %), and they are never cut` : ''}\n\n` +
          `| zone | tokens |\n|---|---:|\n${zones}\n\nWindow ${num(b.window)} − output ${num(b.output_reserve)} − margin ${num(b.margin)}. Click to open the panel.`,
      };
    }
  }
}

/** Budget in the status bar: `<final> / <max_input>`, warning colours when the protected blocks take 90 %, error colours when refused. */
export class BudgetStatusBar extends Disposable {
  readonly item = this._register(vscode.window.createStatusBarItem('contextControl.budget', vscode.StatusBarAlignment.Right, 100));

  /** `folderOf`: in a multi-root workspace, the name of the folder the budget is of (the followed one). */
  constructor(
    service: AssemblyService,
    private readonly folderOf: () => string | undefined = () => undefined,
  ) {
    super();
    this.item.name = 'Context Control Budget';
    this.item.command = 'contextControl.openPanel';
    this._register(service.onDidChange((s) => this.update(s)));
    this.update(service.state);
    this.item.show();
  }

  private update(state: AssemblyState): void {
    const s = statusFor(state);
    const folder = this.folderOf();
    this.item.text = folder ? `${s.text} · ${folder}` : s.text;
    const tooltip = new vscode.MarkdownString(folder ? `Folder **${folder.replace(/[\\`*_[\]<>]/g, '\\$&')}** (the active editor's)\n\n${s.tooltip}` : s.tooltip);
    this.item.tooltip = tooltip;
    this.item.backgroundColor =
      s.level === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : s.level === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: `Context budget: ${s.text.replace(/\$\([^)]*\)\s*/g, '')}`, role: 'button' };
  }
}
