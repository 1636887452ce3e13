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
      'Read a workspace document listed in <available-documents>, whole or one section by heading. Read-only.',
    input: (z) =>
      z
        .object({
          path: z.string().describe('Workspace-relative path, as listed.'),
          heading: z.string().optional().describe('Optional heading of the one section to read.'),
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
      'Search workspace text files for a literal string or regular expression; returns matching lines with their paths. Read-only.',
    input: (z) =>
      z
        .object({
          pattern: z.string().min(1).describe('Text or regular expression to look for.'),
          glob: z.string().optional().describe('Only files matching this glob.'),
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
      'Inspect an offloaded tool result without loading it whole: its head, a grep with context, a line count, or its JSON shape. Read-only.',
    input: (z) =>
      z
        .object({
          path: z.string().describe('The offload path given in the notice.'),
          op: z.enum(INSPECT_OPS).optional(),
          pattern: z.string().optional().describe('Regular expression, for grep.'),
          lines: z.number().int().min(1).max(HEAD_MAX_LINES).optional().describe('How many lines, for head.'),
          context: z.number().int().min(0).max(GREP_MAX_CONTEXT).optional().describe('Lines around a grep match.'),
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
