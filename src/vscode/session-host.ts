/**
 * Entry of dist/session-host.js: the session commands (compact, edit, undo) with the session core they run, loaded
 * by the extension on their first use (lazy-commands.ts) so activation does not load the chain.
 */
import type * as vscode from 'vscode';
import type { AssemblyService } from './assembly';
import { registerSessionCommands } from './session-commands';
import { installDiskHost } from '../host/disk';

// The engines of this bundle take their host; code it calls outside an engine reaches the default one: the disk.
installDiskHost();

export function register(service: AssemblyService) {
  return (context: vscode.ExtensionContext) => registerSessionCommands(context, service, () => service.host.resolvedPins());
}
