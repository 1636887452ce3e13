import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, EXTENSION_ID } from './api';

suite('activation', () => {
  test('activates without loading a tokenizer encoding', async () => {
    const a = await api();
    assert.deepEqual(a.encodingsAtActivation, []);
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
