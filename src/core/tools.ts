/** The read-only tools the model may call. Definitions only here; each provider file writes them in its wire shape. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export const TOOL_DEFINITIONS: ToolDefinition[] = [
  {
    name: 'read_document',
    description: 'Read a workspace document listed in <available-documents>, whole or one section by heading. Read-only.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Workspace-relative path, as listed.' },
        heading: { type: 'string', description: 'Optional heading of the one section to read.' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'search_workspace',
    description: 'Search workspace text files for a literal string or regular expression; returns matching lines with their paths. Read-only.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Text or regular expression to look for.' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
  {
    name: 'inspect_offloaded',
    description: 'Inspect an offloaded tool result without loading it whole: its head, a grep with context, a line count, or its JSON shape. Read-only.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The offload path given in the notice.' },
        op: { type: 'string', enum: ['head', 'grep', 'count', 'shape'] },
        pattern: { type: 'string', description: 'Regular expression, for grep.' },
        lines: { type: 'integer', description: 'How many lines, for head.' },
      },
      required: ['path', 'op'],
      additionalProperties: false,
    },
  },
];
