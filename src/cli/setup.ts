import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lineDiff } from '../core/agents/line-diff';
import { mergeClaudeSettings, mergeSkill } from '../core/agents/setup-claude';
import { AGENTS, mergeCodex, mergeServer, serverEntry, type Agent, type Launch, type Merge } from '../core/agents/setup-config';
import { GATEWAY_AGENTS, DEFAULT_GATEWAY_PORT, gatewayInstructions, mergeClaudeGateway, mergeCodexGateway, undoClaudeGateway, undoCodexGateway, type GatewayAgent, type GatewayMerge } from '../core/agents/gateway-setup';
import { InputError } from '../core/errors';
import { resolveInWorkspace } from '../core/sources/guard';
import { parseCommand } from './args';
import { readRegularFile } from './read-bounded';

/**
 * `ctxctl setup AGENT`: the MCP server entry (and, for Claude Code and Codex, the SessionStart hook) for one agent.
 * Without --write it prints the change it would make; with --write it shows the same diff, then writes. Every file
 * is parsed and merged before any is written, so a malformed file (exit 2, file:line:column) leaves all untouched.
 */

export const SETUP_USAGE = `ctxctl setup claude-code|cursor|vscode|codex [--workspace DIR] [--write] [--command CMD] [--local] [--codex-config FILE]
                 (the MCP server entry; for Claude Code also the SessionStart and PreCompact hooks, the read-only tools allowed
                  and the status line, in .claude/settings.json, or with --local in .claude/settings.local.json, which Claude Code
                  also reads when started in a subfolder of the git repository; for Codex the project's .codex/config.toml unless
                  --codex-config; --write merges them)
       ctxctl setup claude-code|codex|cline|continue|copilot --gateway [--port 8787] [--undo] [--workspace DIR] [--write] [--codex-config FILE]
                 (the agent's base URL pointed at ctxctl gateway; --undo removes exactly what --gateway added)`;

/** An agent's configuration is a few KiB; a larger file is refused before it is parsed (exit 2), never half-read. */
export const SETUP_MAX_BYTES = 8 * 1024 * 1024;

interface Target {
  /** As shown to the user: workspace-relative, or absolute outside it. */
  label: string;
  abs: string;
  merge: (existing: string | undefined) => Merge | GatewayMerge;
}

function targets(agent: Agent, root: string, launch: Launch, codexConfig: string, local: boolean): Target[] {
  const inWorkspace = (rel: string, merge: (existing: string | undefined, file: string) => Merge): Target => ({ label: rel, abs: path.join(root, rel), merge: (e) => merge(e, rel) });
  switch (agent) {
    case 'claude-code':
      return [
        inWorkspace('.mcp.json', (e, f) => mergeServer(e, f, 'mcpServers', serverEntry(agent, launch))),
        inWorkspace(local ? CLAUDE_LOCAL_SETTINGS : '.claude/settings.json', (e, f) => mergeClaudeSettings(e, f, launch)),
        skillTarget(inWorkspace, '.claude/skills/context-control/SKILL.md', 'claude-code'),
      ];
    case 'cursor':
      return [inWorkspace('.cursor/mcp.json', (e, f) => mergeServer(e, f, 'mcpServers', serverEntry(agent, launch)))];
    case 'vscode':
      return [inWorkspace('.vscode/mcp.json', (e, f) => mergeServer(e, f, 'servers', serverEntry(agent, launch)))];
    case 'codex':
      // Per project by default (Codex loads a trusted project's .codex/config.toml); --codex-config names another file.
      return [
        codexConfig === '' ? inWorkspace('.codex/config.toml', (e, f) => mergeCodex(e, f, launch)) : { label: codexConfig, abs: codexConfig, merge: (e) => mergeCodex(e, codexConfig, launch) },
        // Codex finds a repository's skills in .agents/skills.
        skillTarget(inWorkspace, '.agents/skills/context-control/SKILL.md', 'codex'),
      ];
  }
}

/** The shipped skill of `integrations/<agent>/skills/context-control/SKILL.md`, found above this file (dist/ or out/src/cli/). */
export function shippedSkill(agent: 'claude-code' | 'codex'): { text: string; from: string } {
  const rel = path.join('integrations', agent, 'skills', 'context-control', 'SKILL.md');
  for (let dir = __dirname, i = 0; i < 5; i++, dir = path.dirname(dir)) {
    const file = path.join(dir, rel);
    if (fs.existsSync(file)) return { text: fs.readFileSync(file, 'utf8'), from: rel.split(path.sep).join('/') };
  }
  throw new InputError(`setup: the shipped skill ${rel} was not found beside this ctxctl`);
}

function skillTarget(inWorkspace: (rel: string, merge: (existing: string | undefined, file: string) => Merge) => Target, rel: string, agent: 'claude-code' | 'codex'): Target {
  return inWorkspace(rel, (e, f) => {
    const shipped = shippedSkill(agent);
    return mergeSkill(e, f, shipped.text, shipped.from);
  });
}

export function setupCommand(argv: string[], stdout: (s: string) => void, env: Record<string, string | undefined> = process.env): number {
  const { values: v, positionals } = parseCommand('setup', SETUP_USAGE, argv, {
    workspace: { type: 'string' },
    write: { type: 'boolean' },
    command: { type: 'string' },
    'codex-config': { type: 'string' },
    gateway: { type: 'boolean' },
    undo: { type: 'boolean' },
    port: { type: 'string' },
    local: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (v.help) {
    stdout(`Usage:\n  ${SETUP_USAGE}\n`);
    return 0;
  }
  if (v.gateway) return gatewaySetup(positionals, v, stdout, env);
  if (v.undo || v.port !== undefined) throw new InputError('setup: --undo and --port go with --gateway');
  if (v.local && positionals[0] !== 'claude-code') throw new InputError('setup: --local is for claude-code (.claude/settings.local.json)');
  const agent = positionals[0] as Agent;
  if (positionals.length !== 1 || !AGENTS.includes(agent)) throw new InputError(`setup: name one agent of ${AGENTS.join(', ')} (usage: ${SETUP_USAGE})`);
  const words = (v.command ?? 'ctxctl').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw new InputError('setup: --command must not be empty');
  const launch: Launch = { command: words[0], args: words.slice(1) };
  const root = path.resolve(v.workspace ?? process.cwd());
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new InputError('workspace folder not found', v.workspace ?? root);
  const codexConfig = v['codex-config'] === undefined ? '' : path.resolve(v['codex-config']);
  const local = !!v.local;
  const trailer = agent === 'codex' ? codexTrustSteps(root, codexConfig) : agent === 'claude-code' ? [claudeTrustStep(root), claudeSubfolderStep(root, local, isGitTop(root))] : [];
  return apply(targets(agent, root, launch, codexConfig, local), root, codexConfig, `ctxctl setup ${agent}${local ? ' --local' : ''} --write`, trailer, !!v.write, stdout);
}

/**
 * Claude Code applies a project's permissions.allow only in a trusted workspace (measured with claude -p 2.1.332:
 * untrusted, assemble_context is denied; trusted, it runs), and claude -p never asks.
 */
export function claudeTrustStep(root: string): string {
  return `Then trust the folder once (yours to do): start \`claude\` in ${root} and accept the trust dialog; until then Claude Code ignores the permissions.allow above and \`claude -p\` denies the tools.`;
}

export const CLAUDE_LOCAL_SETTINGS = '.claude/settings.local.json';

/** Whether the folder is the top of a git repository (a `.git` folder, or the `.git` file of a worktree). */
function isGitTop(root: string): boolean {
  return fs.existsSync(path.join(root, '.git'));
}

/**
 * Where Claude Code looks for the settings when it is started below the top (measured with claude -p 2.1.332 started
 * in docs/): `.mcp.json` and `.claude/skills` are found up to the top, but `.claude/settings.json` only in the folder
 * it starts in (no hook runs, the tools are denied), while `.claude/settings.local.json` is read from the top of
 * the git repository (outside a git repository, only in the start folder too).
 */
export function claudeSubfolderStep(root: string, local: boolean, git: boolean): string {
  if (!git) return `Start \`claude\` in ${root} itself: started in a subfolder, Claude Code reads neither .claude/settings.json nor .claude/settings.local.json of this folder (it is not the top of a git repository), so no hook runs and the tools are denied; the MCP server and the skill are still found.`;
  if (local) return `Claude Code reads ${CLAUDE_LOCAL_SETTINGS} from the top of the git repository, so the hooks and permissions also hold when \`claude\` starts in a subfolder. The file is yours: keep it out of git.`;
  return `Started in a subfolder (such as docs/), Claude Code reads .claude/settings.json only in that folder: no hook runs and the tools are denied (the MCP server and the skill are still found). To start it anywhere in the repository, run \`ctxctl setup claude-code --local --write\` (your own ${CLAUDE_LOCAL_SETTINGS}, which Claude Code reads from the top of the git repository), or start \`claude\` in ${root}.`;
}

/**
 * The steps only the user can take (issue 28): Codex loads a project's .codex/config.toml only once the project is
 * trusted, and runs a command hook only once it is reviewed and trusted in its TUI; `codex exec` skips an untrusted
 * hook without a word.
 */
export function codexTrustSteps(root: string, codexConfig: string): string[] {
  return [
    'Then, in Codex (these steps are yours: ctxctl does not trust anything for you):',
    ...(codexConfig === '' ? [`  1. Trust the project, so Codex loads .codex/config.toml: start \`codex\` in ${root} and answer yes to trusting the folder (or add [projects.${JSON.stringify(root)}] trust_level = "trusted" to ~/.codex/config.toml).`] : []),
    `  ${codexConfig === '' ? 2 : 1}. Trust the hook: in the Codex TUI type /hooks, pick the SessionStart hook running ctxctl hook codex, and trust it. Until then \`codex exec\` skips it silently.`,
    `  ${codexConfig === '' ? 3 : 2}. Codex releases where hooks are off by default also need [features] hooks = true (the older name codex_hooks is deprecated).`,
  ];
}

interface GatewayValues {
  workspace?: string;
  write?: boolean;
  'codex-config'?: string;
  undo?: boolean;
  port?: string;
}

/** `setup AGENT --gateway [--port N] [--undo]`: Claude Code and Codex files merged; Cline, Continue, Copilot: the lines printed. */
function gatewaySetup(positionals: string[], v: GatewayValues, stdout: (s: string) => void, env: Record<string, string | undefined>): number {
  const agent = positionals[0] as GatewayAgent;
  if (positionals.length !== 1 || !GATEWAY_AGENTS.includes(agent)) throw new InputError(`setup --gateway: name one agent of ${GATEWAY_AGENTS.join(', ')} (usage: ${SETUP_USAGE})`);
  const port = v.port === undefined ? DEFAULT_GATEWAY_PORT : Number(v.port);
  if (!/^\d{1,5}$/.test(v.port ?? '8787') || port < 1 || port > 65535) throw new InputError('setup: --port must be a port number (1-65535)');
  if (v.undo && v.port !== undefined) throw new InputError('setup: --undo removes the gateway entry whatever its port; give no --port');
  if (agent === 'cline' || agent === 'continue' || agent === 'copilot') {
    if (v.undo) {
      stdout(`ctxctl wrote nothing for ${agent}: remove the base URL you set by hand.\n`);
      return 0;
    }
    stdout(gatewayInstructions(agent, port).join('\n') + '\n');
    return 0;
  }
  const root = path.resolve(v.workspace ?? process.cwd());
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new InputError('workspace folder not found', v.workspace ?? root);
  const codexConfig = path.resolve(v['codex-config'] ?? path.join(env.CODEX_HOME || path.join(os.homedir(), '.codex'), 'config.toml'));
  const target: Target =
    agent === 'claude-code'
      ? { label: '.claude/settings.json', abs: path.join(root, '.claude', 'settings.json'), merge: (e) => (v.undo ? undoClaudeGateway(e, '.claude/settings.json') : mergeClaudeGateway(e, '.claude/settings.json', port)) }
      : { label: codexConfig, abs: codexConfig, merge: (e) => (v.undo ? undoCodexGateway(e, codexConfig) : mergeCodexGateway(e, codexConfig, port)) };
  const notes = v.undo ? [] : agent === 'claude-code' ? [`Start the gateway first: ctxctl gateway --workspace . --port ${port}`] : [`Start the gateway first: ctxctl gateway --workspace . --port ${port} (Codex then needs OPENAI_API_KEY set)`];
  return apply([target], root, codexConfig, `ctxctl setup ${agent} --gateway${v.undo ? ' --undo' : v.port !== undefined ? ` --port ${port}` : ''} --write`, notes, !!v.write, stdout);
}

/** Read, merge, show the diff; with `write`, write (or remove a file the undo emptied). Every target is merged before any is written. */
function apply(targetList: Target[], root: string, codexConfig: string, again: string, trailer: string[], write: boolean, stdout: (s: string) => void): number {
  const planned = targetList.map((t) => {
    if (t.abs !== codexConfig) refuseOutside(root, t.abs, t.label);
    const existing = readRegularFile(t.abs, t.label, SETUP_MAX_BYTES);
    return { ...t, existing, merged: t.merge(existing) as GatewayMerge };
  });
  const out: string[] = [];
  for (const p of planned) {
    out.push(...p.merged.notes);
    if (p.merged.changed) out.push(lineDiff(p.existing ?? '', p.merged.text, p.existing === undefined ? `${p.label} (new file)` : p.label).trimEnd());
  }
  out.push(...trailer);
  const changed = planned.filter((p) => p.merged.changed);
  if (!write) {
    out.push(changed.length > 0 ? `nothing written: run \`${again}\` to ${again.includes('--undo') ? 'make' : 'merge'} ${changed.length === 1 ? 'this change' : 'these changes'}` : again.includes('--undo') ? 'nothing to undo' : 'already set up');
    stdout(out.join('\n') + '\n');
    return 0;
  }
  stdout(out.join('\n') + '\n');
  // Every folder first, then every file: a folder that cannot be made leaves all the files untouched.
  for (const p of changed) if (!p.merged.deleted) attempt(p.label, 'nothing written', () => fs.mkdirSync(path.dirname(p.abs), { recursive: true }));
  for (const p of changed) {
    if (p.merged.deleted) {
      attempt(p.label, 'not removed', () => fs.unlinkSync(p.abs));
      stdout(`removed ${p.label}\n`);
      continue;
    }
    attempt(p.label, 'not written', () => fs.writeFileSync(p.abs, p.merged.text));
    stdout(`wrote ${p.label}\n`);
  }
  if (changed.length === 0) stdout(`nothing to write: ${again.includes('--undo') ? 'nothing to undo' : 'already set up'}\n`);
  return 0;
}

/**
 * A target in the workspace is written only where it really is in the workspace, through the workspace guard
 * (core/sources/guard.ts): neither the file nor a folder on its way (`.claude`, `.vscode`) may be a link leading
 * elsewhere (a committed `.claude → ~/.claude` would otherwise edit the user's own settings), an existing target
 * must be a regular file, and not one with other hard links (another of its names may be outside the workspace).
 */
function refuseOutside(root: string, abs: string, label: string): void {
  // Checked first, for their own messages: a dangling link on the way (`.claude -> /nowhere`; lstat, not exists: it
  // is there) and a file in a folder's place.
  let existing = abs;
  while (!lstatOrNone(existing) && existing !== root) existing = path.dirname(existing);
  const real = attempt(label, 'leads through a dangling symbolic link: not read or written', () => fs.realpathSync(existing));
  if (existing !== abs && !fs.statSync(real).isDirectory()) throw new InputError(`${path.relative(root, existing)} is not a folder: not read or written`, label);
  const d = resolveInWorkspace(abs, { root, access: 'write', mayBeMissing: true });
  if (d.ok) return;
  const why =
    d.kind === 'link' || d.kind === 'folder' || d.kind === 'special' ? 'is not a regular file (a link or a folder)'
    : d.kind === 'outside' || d.kind === 'link-outside' ? 'leads outside the workspace through a symbolic link'
    : d.why.replace(/: refused, not written$/, '');
  throw new InputError(`${why}: not read or written`, label);
}

/** The entry itself (a link not followed), or undefined when there is none, a file on its way included (ENOTDIR). */
function lstatOrNone(abs: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(abs);
  } catch {
    return undefined;
  }
}

/** A file-system step on a target; its failure is an InputError naming the target (exit 2), not an internal error. */
function attempt<T>(label: string, what: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    throw new InputError(`${what} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, label);
  }
}
