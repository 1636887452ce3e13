/**
 * A tool call's input checked against its tool's JSON Schema (tool-schemas.json, which the build writes from the
 * zod schemas of tool-registry.ts): the check the MCP SDK makes with zod, for the surfaces that run without zod
 * (the request's tool loop, the editor's language-model tools). It knows the schema forms the registry uses: an
 * object of known properties, strings (minLength, enum), integers and numbers (minimum, maximum, exclusiveMinimum)
 * and booleans. test/unit/tools/registry.test.ts checks that it accepts and refuses what zod does.
 */

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  enum?: unknown[];
  minLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}

/** The first problem of `input` against `schema`, as one sentence, or undefined when it conforms. */
export function inputProblem(schema: JsonSchema, input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'the input must be a JSON object';
  const record = input as Record<string, unknown>;
  const properties = schema.properties ?? {};
  for (const key of schema.required ?? []) {
    if (record[key] === undefined) return `"${key}" is required`;
  }
  for (const [key, value] of Object.entries(record)) {
    const property = properties[key];
    if (!property) {
      if (schema.additionalProperties === false) return `unknown property "${key}"; the properties are ${Object.keys(properties).join(', ')}`;
      continue;
    }
    if (value === undefined) continue;
    const problem = valueProblem(property, value);
    if (problem) return `"${key}" ${problem}`;
  }
  return undefined;
}

function valueProblem(schema: JsonSchema, value: unknown): string | undefined {
  if (schema.enum && !schema.enum.includes(value)) return `must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`;
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') return `must be a string, got ${kind(value)}`;
      if (schema.minLength !== undefined && value.length < schema.minLength) return schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`;
      return undefined;
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a number, got ${kind(value)}`;
      if (schema.type === 'integer' && !Number.isInteger(value)) return `must be a whole number, got ${value}`;
      if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return `must be above ${schema.exclusiveMinimum}, got ${value}`;
      if (schema.minimum !== undefined && value < schema.minimum) return `must be at least ${schema.minimum}, got ${value}`;
      if (schema.maximum !== undefined && value > schema.maximum) return `must be at most ${schema.maximum}, got ${value}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false, got ${kind(value)}`;
    default:
      return undefined;
  }
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}` : `${typeof value} ${JSON.stringify(value)}`;
}
