import * as fs from 'node:fs';
import * as path from 'node:path';
import { fromRecord, fromTranscript, lastRequest, statusText, transcriptRefusal } from '../core/agents/statusline';
import { recordFiles, recordsDir } from '../core/gateway/records';
import { defaultAgentDirs } from './gateway-agents';
import { readBounded } from './hook';
import { workspaceRootFrom } from './workspace-root';

/**
 * `ctxctl statusline claude-code`: Claude Code's `statusLine` command. It reads the status JSON on stdin (the
 * transcript path, the folders) and prints one short line: the context use of the agent's last request, from the
 * newest `.context/gateway/` record when the gateway carried it, else from the transcript. The transcript is read
 * only inside Claude Code's own folders (~/.claude, CLAUDE_CONFIG_DIR), only its tail, and only its usage figures.
 * Any problem prints a short line and exits 0: a status line never fails the agent.
 */

export const STATUSLINE_USAGE = 'ctxctl statusline claude-code   (Claude Code\'s statusLine command: reads the status JSON on stdin, prints one line)';

/** The transcript's tail that is read: the last request is in its last lines. */
const TAIL_BYTES = 2 * 1024 * 1024;
/** A gateway record holds the request as received and sent; one larger than this is not read. */
const RECORD_MAX_BYTES = 64 * 1024 * 1024;

export interface StatuslineIo {
  stdout: (s: string) => void;
  env?: Record<string, string | undefined>;
  readStdin?: () => Promise<string>;
}

export async function statuslineCommand(argv: string[], io: StatuslineIo): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    io.stdout(`Usage:\n  ${STATUSLINE_USAGE}\n`);
    return 0;
  }
  if (argv.length !== 1 || argv[0] !== 'claude-code') {
    io.stdout(`ctx: usage: ${STATUSLINE_USAGE}\n`);
    return 0;
  }
  const env = io.env ?? process.env;
  let input: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(await (io.readStdin ?? (() => readBounded(process.stdin)))());
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) input = parsed as Record<string, unknown>;
  } catch {
    // no status JSON: the gateway's record alone can still answer
  }
  const workspace = input.workspace && typeof input.workspace === 'object' ? (input.workspace as Record<string, unknown>) : {};
  const folder = [workspace.project_dir, workspace.current_dir, input.cwd, env.CLAUDE_PROJECT_DIR].find((v): v is string => typeof v === 'string' && v !== '');
  const root = folder ? workspaceRootFrom(path.resolve(folder), env.HOME || undefined).root : undefined;
  const gateway = root ? newestRecord(root) : undefined;
  const transcript = typeof input.transcript_path === 'string' ? transcriptTail(input.transcript_path, defaultAgentDirs(env as NodeJS.ProcessEnv)) : undefined;
  io.stdout(statusText(lastRequest(gateway, transcript ? fromTranscript(transcript) : undefined)) + '\n');
  return 0;
}

function newestRecord(root: string) {
  const dir = recordsDir(root);
  for (const name of recordFiles(dir).reverse().slice(0, 3)) {
    try {
      const file = path.join(dir, name);
      if (fs.statSync(file).size > RECORD_MAX_BYTES) continue;
      const found = fromRecord(JSON.parse(fs.readFileSync(file, 'utf8')));
      if (found) return found;
    } catch {
      // a record being written: the one before
    }
  }
  return undefined;
}

/** The transcript's last lines, when its real path is in Claude Code's folders and it is a regular file. */
function transcriptTail(file: string, agentDirs: string[]): string[] | undefined {
  try {
    const real = fs.realpathSync(file);
    if (transcriptRefusal(real, agentDirs.map((d) => (fs.existsSync(d) ? fs.realpathSync(d) : d)))) return undefined;
    const fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) return undefined;
      const start = Math.max(0, st.size - TAIL_BYTES);
      const buf = Buffer.alloc(st.size - start);
      fs.readSync(fd, buf, 0, buf.length, start);
      const lines = buf.toString('utf8').split('\n');
      return start > 0 ? lines.slice(1) : lines;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
