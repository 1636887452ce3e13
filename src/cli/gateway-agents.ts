import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentPathRefusal } from '../core/gateway/agent-preview';
import type { PlanContext } from '../core/gateway/plan';

/** Where an agent saves its own tool outputs, and how the gateway reads one (only there, bounded). */

const MAX_AGENT_FILE = 32 * 1024 * 1024;

/** An agent's saved output, read only when its real path is in one of the agent folders, a regular file, and bounded. */
export function readAgentOutput(agentDirs: string[]): PlanContext['readAgentOutput'] {
  return (file) => {
    let real: string;
    try {
      real = fs.realpathSync(file);
    } catch {
      return { refused: 'no such file' };
    }
    const refused = agentPathRefusal(real, agentDirs.map((d) => { try { return fs.realpathSync(d); } catch { return d; } }));
    if (refused) return { refused };
    const st = fs.statSync(real);
    if (!st.isFile()) return { refused: 'not a regular file' };
    if (st.size > MAX_AGENT_FILE) return { refused: `${st.size} bytes is over the ${MAX_AGENT_FILE}-byte limit` };
    return { text: fs.readFileSync(real, 'utf8') };
  };
}

/** Claude Code's folders: ~/.claude and CLAUDE_CONFIG_DIR when set. */
export function defaultAgentDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = [path.join(env.HOME ?? os.homedir(), '.claude')];
  if (env.CLAUDE_CONFIG_DIR) dirs.push(env.CLAUDE_CONFIG_DIR);
  return dirs;
}
