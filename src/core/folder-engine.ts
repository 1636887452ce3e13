import * as path from 'node:path';
import { withHost, type Host, type HostWatch } from './host';
import type { Policy } from './policy';
import { readText } from './sources/scan';
import { loadPolicy } from './sources/snapshot';

/** A workspace folder: its absolute root and the name a multi-root workspace shows for it (default: its base name). */
export interface FolderRef {
  root: string;
  name?: string;
}

/**
 * The part of a folder's engine that carries no chain: its host, its policy, its watch, its keys and its model's
 * counter. The editor's own thread uses it (its bundle holds no chain and no tokenizer); `ContextEngine`
 * (engine.ts), which the CLI and the workers use, is this and the chain.
 */
export class FolderEngine {
  readonly root: string;
  readonly name: string;

  constructor(
    readonly host: Host,
    folder: string | FolderRef,
  ) {
    const f = typeof folder === 'string' ? { root: folder } : folder;
    this.root = path.resolve(f.root);
    this.name = f.name ?? path.basename(this.root);
  }

  /** Runs a core call with this engine's host (the chain reaches it at every read, across awaits too). */
  protected run<T>(fn: () => T): T {
    return withHost(this.host, fn);
  }

  /** The effective policy: `policyFile`, else the workspace's `.context/policy.yaml`, else the default. */
  policy(policyFile?: string): Policy {
    return this.run(() => loadPolicy(this.root, policyFile));
  }

  /** A workspace file's text as the host has it (BOM dropped, line ends `\n`); throws when it cannot be read. */
  read(relPath: string): string {
    return this.run(() => readText(this.root, relPath));
  }

  /** Watches the folder: `onChange` gets each changed file's workspace path (forward slashes). */
  watch(onChange: (rel: string) => void): HostWatch {
    return this.host.watch(this.root, (abs) => {
      const rel = path.relative(this.root, abs);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) onChange(rel.split(path.sep).join('/'));
    });
  }

  /** A provider's API key, from the host's keys (never written or logged). */
  secret(provider: string): Promise<string | undefined> {
    return this.host.secret(provider);
  }

  /** The target model's own count of a text, when the host has one (vscode.lm); undefined otherwise. */
  modelCount(text: string): Promise<number> | undefined {
    return this.host.countTokens?.(text);
  }
}
