import * as vscode from 'vscode';

/** Base for host objects that own subscriptions: everything registered is disposed with the owner. */
export abstract class Disposable implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  protected _register<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.disposables.push(d);
    return d;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}
