import { toolsOn, type ToolDeclaration } from './tool-registry';
import { inputProblem, type JsonSchema } from './tool-input';
import schemas from './tool-schemas.json';

/**
 * The read-only tools the model may call in the request, from the one registry (tool-registry.ts): each one's
 * name, description and input schema (tool-schemas.json, the build's JSON Schema of the registry's zod schema).
 * Each provider file writes them in its wire shape.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

const SCHEMAS = schemas as Record<string, JsonSchema>;

export function toolDefinition(tool: ToolDeclaration): ToolDefinition {
  return { name: tool.name, description: tool.description, parameters: SCHEMAS[tool.name] as Record<string, unknown> };
}

export const TOOL_DEFINITIONS: ToolDefinition[] = toolsOn('request').map(toolDefinition);

/** What is wrong with a call's input to `tool` (a registry name), as the tool's answer says it; undefined: it conforms. */
export function toolInputProblem(tool: string, input: unknown): string | undefined {
  const schema = SCHEMAS[tool];
  if (!schema) return `unknown tool "${tool}"`;
  const problem = inputProblem(schema, input);
  return problem && `invalid arguments for ${tool}: ${problem}`;
}
