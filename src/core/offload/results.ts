import * as path from 'node:path';
import picomatch from 'picomatch';
import { InputError } from '../errors';
import type { Policy } from '../policy';
import { redactedFileLines } from '../trim/lines';
import { resolveInWorkspace } from '../sources/guard';
import type { Lines } from '../trim/types';

/** A tool result returned in this step (`--tool-result NAME=FILE`, or the host's tool calls). */
export interface ToolResult {
  /** The tool's name, as returned. */
  name: string;
  /** The block source: `tool:NAME` (`tool:NAME#2` for a second call of the same tool). */
  source: string;
  /** Absolute path of the file that holds the result. */
  abs: string;
  /** Workspace-relative path when the file is in the workspace: referenced in place, never copied. */
  workspacePath?: string;
  size: number;
  /** The policy's format for the file, when one of its `tool_output.formats` globs matches. */
  format?: string;
  lines: Lines;
}

/** `NAME=FILE` as given on the command line (FILE absolute or relative to `cwd`). */
export interface ToolResultSpec {
  name: string;
  file: string;
}

const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** Parse one `NAME=FILE` argument. */
export function parseToolResultArg(arg: string): ToolResultSpec {
  const eq = arg.indexOf('=');
  const name = eq > 0 ? arg.slice(0, eq) : '';
  const file = eq > 0 ? arg.slice(eq + 1) : '';
  if (!NAME.test(name) || file === '') {
    throw new InputError(`--tool-result expects NAME=FILE with NAME made of letters, digits, "_", ".", ":" or "-", got "${arg}"`);
  }
  return { name, file };
}

/** Stat the results (never read them: trimming and offloading stream them later). A missing file is bad input. */
export function loadToolResults(root: string, specs: ToolResultSpec[], policy: Policy, cwd = process.cwd()): ToolResult[] {
  const seen = new Map<string, number>();
  const formatOf = policy.tool_output.formats.map((f) => ({ test: picomatch(f.match, { dot: true }), format: f.format }));
  return specs.map((spec) => {
    const arg = `--tool-result ${spec.name}=${spec.file}`;
    // Through the workspace guard: a file named in the workspace must stay in it through its links; one the caller
    // names outside the workspace is its own tool output, read as named. Secret files and special files never.
    const d = resolveInWorkspace(spec.file, { root, base: cwd, outsideAsNamed: true });
    if (!d.ok) {
      if (d.kind === 'secret') throw new InputError(`tool result is ${d.why.startsWith('is a link') ? 'a link to a secret file' : 'a secret file by name'} (${arg}): refused, never read or sent`, spec.file);
      if (d.kind === 'missing') throw new InputError(`tool result file not found (${arg})`, spec.file);
      if (d.kind === 'folder' || d.kind === 'special') throw new InputError(`tool result is not a file (${arg}): ${d.why}`, spec.file);
      throw new InputError(`tool result ${d.why} (${arg})`, spec.file);
    }
    const abs = d.abs;
    const stat = { size: d.size ?? 0 };
    const n = (seen.get(spec.name) ?? 0) + 1;
    seen.set(spec.name, n);
    const rel = path.relative(root, abs);
    const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
    const workspacePath = inside ? rel.split(path.sep).join('/') : undefined;
    const matchOn = workspacePath ?? path.basename(abs);
    return {
      name: spec.name,
      source: `tool:${spec.name}${n > 1 ? `#${n}` : ''}`,
      abs,
      workspacePath,
      size: stat.size,
      format: formatOf.find((f) => f.test(matchOn))?.format,
      lines: redactedFileLines(abs),
    };
  });
}
