import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CaseResult } from '../core/compare/check-run';
import { parseChecks, type CheckCase } from '../core/compare/checks-file';
import { InputError } from '../core/errors';
import { Disposable } from './disposable';
import type { Settings } from './settings';
import type { AssemblyWorker } from './worker/client';

/**
 * Context checks in the Test Explorer: each `.context/checks.yaml` is a test item, each case a child at its line (so
 * it runs from the gutter), and a failing expectation is a test message at the expectation's line. Runs build the
 * request without sending it (the answer expectations are reported as not checked: `ctxctl check --provider` sends).
 */

export const CHECKS_GLOB = '**/.context/checks.yaml';

export class ChecksTests extends Disposable {
  readonly controller: vscode.TestController;
  private readonly cases = new Map<string, { file: vscode.Uri; c: CheckCase }>();

  constructor(
    private readonly worker: AssemblyWorker,
    private readonly settings: () => Settings,
  ) {
    super();
    this.controller = this._register(vscode.tests.createTestController('contextControl.checks', 'Context Checks'));
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    this._register(this.controller.createRunProfile('Check context', vscode.TestRunProfileKind.Run, async (request, token) => void (await this.run(request, token)), true));
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(CHECKS_GLOB));
    this._register(watcher.onDidChange((u) => this.load(u)));
    this._register(watcher.onDidCreate((u) => this.load(u)));
    this._register(watcher.onDidDelete((u) => this.controller.items.delete(u.toString())));
    this._register(vscode.workspace.onDidSaveTextDocument((d) => d.uri.path.endsWith('/.context/checks.yaml') && this.load(d.uri)));
  }

  async discover(): Promise<void> {
    const files = await vscode.workspace.findFiles(CHECKS_GLOB, '**/node_modules/**', 50);
    for (const f of files) this.load(f);
  }

  /** (Re)read one checks file into items; a file that does not parse shows its error on the file item. */
  load(uri: vscode.Uri): vscode.TestItem {
    const label = vscode.workspace.asRelativePath(uri, false);
    const fileItem = this.controller.createTestItem(uri.toString(), label, uri);
    this.controller.items.add(fileItem);
    for (const key of [...this.cases.keys()].filter((k) => k.startsWith(`${uri.toString()}#`))) this.cases.delete(key);
    try {
      const cases = parseChecks(fs.readFileSync(uri.fsPath, 'utf8'), label);
      fileItem.children.replace(
        cases.map((c) => {
          const id = `${uri.toString()}#${c.name}`;
          this.cases.set(id, { file: uri, c });
          const item = this.controller.createTestItem(id, c.name, uri);
          item.range = new vscode.Range(c.line - 1, 0, c.line - 1, 0);
          return item;
        }),
      );
      fileItem.error = undefined;
    } catch (e) {
      fileItem.children.replace([]);
      fileItem.error = e instanceof InputError ? e.toString() : `cannot read ${label}: ${(e as Error).message}`;
    }
    return fileItem;
  }

  /** Run cases (all when `request.include` is empty) and report each; returns the results for callers and tests. */
  async run(request: Pick<vscode.TestRunRequest, 'include' | 'exclude'>, token?: vscode.CancellationToken): Promise<Map<string, CaseResult | string>> {
    // Discovery waits for the Test Explorer (resolveHandler); "Run All Tests" before it finds the files first.
    if (this.controller.items.size === 0) await this.discover();
    const run = this.controller.createTestRun(request as vscode.TestRunRequest);
    const results = new Map<string, CaseResult | string>();
    const wanted: vscode.TestItem[] = [];
    const add = (item: vscode.TestItem) => (item.children.size ? item.children.forEach(add) : this.cases.has(item.id) && !request.exclude?.includes(item) && wanted.push(item));
    if (request.include?.length) request.include.forEach(add);
    else this.controller.items.forEach(add);
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'context-checks-'));
    try {
      for (const [i, item] of wanted.entries()) {
        if (token?.isCancellationRequested) run.skipped(item);
        else results.set(item.id, await this.runOne(run, item, path.join(scratch, String(i))));
      }
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
      run.end();
    }
    return results;
  }

  private async runOne(run: vscode.TestRun, item: vscode.TestItem, offloadDir: string): Promise<CaseResult | string> {
    const { file, c } = this.cases.get(item.id)!;
    const root = path.dirname(path.dirname(file.fsPath));
    const label = vscode.workspace.asRelativePath(file, false);
    const at = (line: number) => new vscode.Location(file, new vscode.Position(line - 1, 0));
    run.started(item);
    const settings = this.settings();
    try {
      // Assembled in the worker, with the stored summaries the CLI uses (worker/ops.ts).
      const result = await this.worker.run('runCase', { case: c, options: { root, file: label, model: settings.model, encoding: settings.encoding, offloadDir } });
      for (const x of result.results) run.appendOutput(`${x.ok ? 'PASS' : 'FAIL'}  ${label}:${x.line}  ${x.expectation}: ${x.found}\r\n`, at(x.line), item);
      for (const x of result.skipped) run.appendOutput(`SKIP  ${label}:${x.line}  answer ${x.expectation}: ${x.found}: Test Results assemble without sending; Compare Policies, then Send, checks the answers\r\n`, at(x.line), item);
      if (result.passed) run.passed(item);
      else {
        const messages = [
          ...(result.error ? [located(result.error, at(c.line))] : []),
          ...result.results.filter((x) => !x.ok).map((x) => located(`${x.expectation}: ${x.found}`, at(x.line))),
        ];
        run.failed(item, messages);
      }
      return result;
    } catch (e) {
      const message = e instanceof InputError ? e.toString() : (e as Error).message;
      run.errored(item, located(message, at(c.line)));
      return message;
    }
  }
}

function located(text: string, location: vscode.Location): vscode.TestMessage {
  const m = new vscode.TestMessage(text);
  m.location = location;
  return m;
}
