import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, EXTENSION_ID } from './api';

suite('activation', () => {
  test('activation loads dist/extension.js alone: the chain, the tokenizer and the session bundle stay out of this process', async () => {
    await api();
    const dist = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist') + path.sep;
    const loaded = Object.keys(require.cache).filter((k) => k.startsWith(dist)).map((k) => path.relative(dist, k));
    assert.deepEqual(loaded, ['extension.js']);
  });

  test('reports how long activate() took', async () => {
    const a = await api();
    assert.ok(Number.isFinite(a.activationMs) && a.activationMs > 0, String(a.activationMs));
    console.log(`  activation: activate() took ${a.activationMs.toFixed(1)} ms`);
  });

  test('registers every contributed command under the Context Control category', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const pkg = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8'));
    const contributed: { command: string; category: string }[] = pkg.contributes.commands;
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const c of contributed) {
      assert.equal(c.category, 'Context Control');
      assert.ok(registered.has(c.command), `${c.command} is registered`);
    }
    assert.ok(registered.has('contextControl.panel.focus'), 'the panel view is contributed');
  });
});
