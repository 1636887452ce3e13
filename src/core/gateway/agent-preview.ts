import * as path from 'node:path';

/**
 * The agent's own offload previews. Claude Code saves a large tool output to a file and sends the model a
 * head-only preview: `<persisted-output>` … `Full output saved to: PATH` … `Preview (first 2KB):` …. The gateway
 * may read PATH, and only when it is a file of that agent's own tool-results folder
 * (`<CLAUDE_CONFIG_DIR or ~/.claude>/projects/<project>/…/tool-results/<file>`): never anything else the text names.
 */

export interface AgentPreview {
  path: string;
  /** What the agent showed, as it says it (`first 2KB`). */
  shown: string;
}

const OPENING = /^\s*<persisted-output>/;
const SAVED = /Full output saved to:[ \t]*([^\r\n]+?)[ \t]*(?:\r?\n|$)/;
const SHOWN = /Preview \(([^)\r\n]{1,40})\)/;

/** The saved file a tool result's text points to, when the text is such a preview. */
export function parseAgentPreview(text: string): AgentPreview | undefined {
  if (!OPENING.test(text)) return undefined;
  const saved = SAVED.exec(text);
  if (!saved) return undefined;
  return { path: saved[1], shown: SHOWN.exec(text)?.[1] ?? 'a preview' };
}

/**
 * Why `file` may not be read as an agent's saved output, or undefined when it may: an absolute path (already
 * resolved through links by the caller) strictly below `<agentDir>/projects/`, directly in a folder named `tool-results`.
 */
export function agentPathRefusal(file: string, agentDirs: readonly string[]): string | undefined {
  if (!path.isAbsolute(file)) return 'not an absolute path';
  const normal = path.normalize(file);
  if (path.basename(path.dirname(normal)) !== 'tool-results') return 'not in a tool-results folder';
  const inside = agentDirs.some((dir) => {
    const rel = path.relative(path.join(path.resolve(dir), 'projects'), normal);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  });
  return inside ? undefined : `outside the agent's own folders (${agentDirs.map((d) => path.join(d, 'projects')).join(', ')})`;
}
