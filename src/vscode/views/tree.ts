import * as vscode from 'vscode';
import { formatTokens } from '../../view-model/format';
import { Disposable } from '../disposable';

/** A tree node as plain data: the view files build these from state with pure functions. */
export interface Node {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon?: string;
  iconColor?: string;
  contextValue?: string;
  /** Workspace-relative path (and 1-based line) opened on click; `root`: the folder it is relative to (multi-root), default the followed one. */
  open?: { source: string; line?: number; root?: string };
  /** A command run on click instead of opening a source. */
  command?: { command: string; title: string; arguments?: unknown[] };
  children?: Node[];
  expanded?: boolean;
}

/** The emitter/event pair of a data-driven tree; `set` replaces the nodes and refreshes the view. */
export class NodeTree extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly emitter = this._register(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  private roots: Node[] = [];

  set(nodes: Node[]): void {
    this.roots = nodes;
    this.emitter.fire(undefined);
  }

  get nodes(): Node[] {
    return this.roots;
  }

  getChildren(node?: Node): Node[] {
    return node ? (node.children ?? []) : this.roots;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const state = node.children ? (node.expanded === false ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded) : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    item.description = node.description;
    if (node.tooltip) {
      const md = new vscode.MarkdownString(node.tooltip);
      md.supportThemeIcons = true;
      item.tooltip = md;
    }
    if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon, node.iconColor ? new vscode.ThemeColor(node.iconColor) : undefined);
    item.contextValue = node.contextValue;
    if (node.open) item.command = { command: 'contextControl.openItem', title: 'Open Source', arguments: [node.open] };
    else if (node.command) item.command = node.command;
    return item;
  }
}

export function group(id: string, label: string, children: Node[], icon?: string, expanded = true): Node {
  return { id, label, description: String(children.length), children, icon, expanded: children.length > 0 && expanded };
}

export function tokens(n: number | undefined, approximate = false): string {
  if (n === undefined) return '';
  return `${formatTokens(n, !approximate)} tok`;
}

export function escapeMd(text: string): string {
  return text.replace(/([\\`*_{}[\]()#+\-.!|<>])/g, '\\$1');
}
