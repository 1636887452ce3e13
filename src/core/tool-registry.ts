import type { z as Zod } from 'zod';
import { MAX_TOKENS } from './policy';

/**
 * The read-only tools, each declared once: its name, what the model is told it does, its input (a zod schema),
 * and which surfaces offer it. Every surface takes the same inputs from here:
 *   - 'request': the tool definitions of the request the panel and `ctxctl send` build (tools.ts, from the JSON
 *     Schema the build writes to tool-schemas.json);
 *   - 'mcp': `ctxctl mcp` (cli/mcp.ts registers each tool with this schema, built with the MCP SDK's zod);
 *   - 'lm': VS Code's language-model tools (package.json contributes.languageModelTools, written by the build).
 * The schema is a function of the zod it is built with, so no bundle carries zod for it: the MCP server passes
 * the SDK's (dist/vendor/mcp.js), the build and the tests pass zod itself. test/unit/tools/registry.test.ts checks
 * that tool-schemas.json and package.json are what this file declares.
 */

export type Surface = 'request' | 'mcp' | 'lm';
type Z = typeof Zod;

export interface ToolDeclaration {
  name: string;
  /** For the model, on every surface (the request's description, MCP's, VS Code's modelDescription). */
  description: string;
  /** The input: an object of exactly these properties (no other is accepted). */
  input: (z: Z) => Zod.ZodObject;
  /** Reads only, never writes nor reaches outside the workspace (MCP readOnlyHint; the 'read-only' tag). */
  readOnly: true;
  surfaces: readonly Surface[];
  /** What people see: MCP's title, VS Code's displayName, userDescription, #reference, icon and tags. */
  title: string;
  lm: { displayName: string; toolReferenceName: string; userDescription: string; icon: string; tags: string[] };
}

/** The inspect operations, in the order several run (the CLI's order). */
export const INSPECT_OPS = ['head', 'grep', 'count', 'shape'] as const;
/** The most lines a head returns, and the most context lines around a grep match. */
export const HEAD_MAX_LINES = 200;
export const GREP_MAX_CONTEXT = 10;

export const TOOLS: readonly ToolDeclaration[] = [
  {
    name: 'assemble_context',
    description:
      'Returns the project context for a task, selected under the token budget of the project\'s policy: the AGENTS.md rules and pinned ' +
      'blocks (never cut), applicable decisions (superseded ones left out), relevant documents and trimmed tool output, each wrapped with ' +
      'its provenance as project data, and an <available-documents> index of what was not loaded (fetch it with read_document). Ends with ' +
      'the trace: what was selected, trimmed, offloaded or left out and why, with tokens. Call it once at the start of a task. Read-only.',
    input: (z) =>
      z
        .object({
          task: z.string().min(1).describe('The task or question in the user\'s words, or the workspace-relative path of a task file (e.g. ticket.md).'),
          max_input: z.number().int().positive().max(MAX_TOKENS).optional().describe('Token budget for the whole request; default: the policy\'s window − output_reserve − margin.'),
          policy: z.string().min(1).optional().describe('Workspace-relative path of another policy file; default .context/policy.yaml.'),
        })
        .strict(),
    readOnly: true,
    surfaces: ['mcp', 'lm'],
    title: 'Assemble the budgeted context',
    lm: {
      displayName: 'Context Control: Assemble Context',
      toolReferenceName: 'context',
      userDescription: 'The workspace context for a task, budgeted, pruned and trimmed by Context Control\'s policy, with a short trace.',
      icon: '$(symbol-ruler)',
      tags: ['context', 'workspace', 'read-only'],
    },
  },
  {
    name: 'read_document',
    description:
      'Reads a workspace document listed in <available-documents>, whole or one section by heading, through the same checks as the context: ' +
      'superseded or unrelated decisions are refused with the reason, secrets are redacted, a long text is trimmed to the budget with a ' +
      'notice naming the sections left out. Paths outside the workspace are refused. Read-only.',
    input: (z) =>
      z
        .object({
          path: z.string().min(1).describe('Workspace-relative path, as listed (may end in #heading).'),
          heading: z.string().optional().describe('The heading of the one section to read.'),
        })
        .strict(),
    readOnly: true,
    surfaces: ['request', 'mcp', 'lm'],
    title: 'Read a workspace document',
    lm: {
      displayName: 'Context Control: Read Document',
      toolReferenceName: 'contextRead',
      userDescription: 'Read one workspace document, or one section of it, through Context Control\'s checks.',
      icon: '$(book)',
      tags: ['context', 'workspace', 'read-only'],
    },
  },
  {
    name: 'search_workspace',
    description:
      'Searches the workspace text files (ignored and secret files left out) for a literal string or a regular expression, case-insensitive; ' +
      'returns the matching lines as path:line: text, first matches first, with the total. Secrets are redacted. Read-only.',
    input: (z) =>
      z
        .object({
          pattern: z.string().min(1).describe('Text or regular expression to look for.'),
          glob: z.string().min(1).optional().describe('Only files whose workspace-relative path matches this glob, e.g. "src/**/*.java".'),
        })
        .strict(),
    readOnly: true,
    surfaces: ['request', 'mcp', 'lm'],
    title: 'Search the workspace',
    lm: {
      displayName: 'Context Control: Search Workspace',
      toolReferenceName: 'contextSearch',
      userDescription: 'Search the workspace\'s text files Context Control scans (gitignored and secret files excluded).',
      icon: '$(search)',
      tags: ['context', 'workspace', 'search', 'read-only'],
    },
  },
  {
    name: 'inspect_offloaded',
    description:
      'Inspects a large file without loading it whole: an offloaded tool result (the path given in an "offloaded" notice) or a workspace log. ' +
      'op "head" (the default) returns the first lines, "grep" the lines matching pattern with context, "count" its lines, bytes and ' +
      'estimated tokens, "shape" the keys and types of a JSON file. Other paths are refused; secrets are redacted. Read-only.',
    input: (z) =>
      z
        .object({
          path: z.string().min(1).describe('The offload path given in the notice, or a workspace-relative path.'),
          op: z.enum(INSPECT_OPS).optional().describe('What to look at; default head.'),
          pattern: z.string().min(1).optional().describe('Regular expression (case-insensitive), required for grep.'),
          lines: z.number().int().min(1).max(HEAD_MAX_LINES).optional().describe('How many lines, for head (default 40).'),
          context: z.number().int().min(0).max(GREP_MAX_CONTEXT).optional().describe('Lines of context around each grep match (default 1).'),
        })
        .strict(),
    readOnly: true,
    surfaces: ['request', 'mcp', 'lm'],
    title: 'Inspect an offloaded result',
    lm: {
      displayName: 'Context Control: Inspect Offloaded Result',
      toolReferenceName: 'contextInspect',
      userDescription: 'Look into a large tool result or log Context Control offloaded to a file, without loading it whole.',
      icon: '$(file-binary)',
      tags: ['context', 'workspace', 'read-only'],
    },
  },
];

export function toolsOn(surface: Surface): ToolDeclaration[] {
  return TOOLS.filter((t) => t.surfaces.includes(surface));
}

/** The JSON Schema of a tool's input as every surface shows it: zod's, without the `$schema` line. */
export function inputJsonSchema(z: Z, tool: ToolDeclaration): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.input(z), { io: 'input' }) as Record<string, unknown>;
  return schema;
}

/** package.json's contributes.languageModelTools entry of a tool. */
export function languageModelTool(z: Z, tool: ToolDeclaration): Record<string, unknown> {
  return {
    name: tool.name,
    displayName: tool.lm.displayName,
    toolReferenceName: tool.lm.toolReferenceName,
    canBeReferencedInPrompt: true,
    icon: tool.lm.icon,
    when: 'config.contextControl.chat.tools',
    userDescription: tool.lm.userDescription,
    modelDescription: tool.description,
    inputSchema: inputJsonSchema(z, tool),
    tags: tool.lm.tags,
  };
}
