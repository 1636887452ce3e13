import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { num } from '../core/report/trace';
import type { AssemblyState } from './assembly';
import type { Settings } from './settings';

export interface SendInput {
  state: Extract<AssemblyState, { kind: 'ok' }>;
  settings: Settings;
  secrets: vscode.SecretStorage;
  outputDir: string;
  token: vscode.CancellationToken;
  onText: (text: string) => void;
}

/** Send the assembled request with the configured provider; returns a one-line note for the panel. */
export async function sendRequest(input: SendInput): Promise<string> {
  const { state, settings } = input;
  if (settings.provider === 'dry-run') {
    const file = path.join(input.outputDir, 'request.json');
    fs.mkdirSync(input.outputDir, { recursive: true });
    fs.writeFileSync(file, state.assembly.serialized);
    const b = state.assembly.manifest.budget;
    input.onText(`Dry run: nothing was sent.\nThe exact request (${num(Buffer.byteLength(state.assembly.serialized))} bytes, ${num(b.final)} / ${num(b.max_input)} tokens) was written to ${file}.\n`);
    return `Dry run written to ${file}`;
  }
  throw new Error(`provider "${settings.provider}" is not wired in the extension yet`);
}
