import { stringify } from 'yaml';
/** The structured session summary, its JSON schema (sent to the model), and the schema check run before reuse. */
export interface SessionSummary {
  objective: string;
  established_facts: string[];
  decisions: string[];
  completed_actions: string[];
  unresolved_questions: string[];
  next_step: string[];
  sources: string[];
}

export const LIST_FIELDS = ['established_facts', 'decisions', 'completed_actions', 'unresolved_questions', 'next_step', 'sources'] as const;
export type ListField = (typeof LIST_FIELDS)[number];
export const SUMMARY_FIELDS = ['objective', ...LIST_FIELDS] as const;

const list = (description: string) => ({ type: 'array', items: { type: 'string' }, description });

/** JSON Schema (draft 2020-12 subset accepted by structured-output APIs): every key required, nothing else allowed. */
export const SUMMARY_JSON_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'session_summary',
  type: 'object',
  additionalProperties: false,
  required: [...SUMMARY_FIELDS],
  properties: {
    objective: { type: 'string', minLength: 1, description: 'What the session is trying to achieve, in one sentence.' },
    established_facts: list('Facts the events confirm (tool output, reproduced behaviour). Never a hypothesis or an open question.'),
    decisions: list('Decisions and constraints stated in the session, including every quoted project rule or pinned constraint.'),
    completed_actions: list('Actions that were actually carried out. Never a proposal, a draft or a plan.'),
    unresolved_questions: list('Questions and hypotheses that are still open, worded as such.'),
    next_step: list('The next step(s), as proposals.'),
    sources: list('Workspace paths or session event ids that support the summary; only ones that exist.'),
  },
} as const;

export function emptySummary(): SessionSummary {
  return { objective: '', established_facts: [], decisions: [], completed_actions: [], unresolved_questions: [], next_step: [], sources: [] };
}

/** Check a value against the schema. Errors name the field: `established_facts[2] must be a string`. */
export function checkSchema(value: unknown): { summary?: SessionSummary; errors: string[] } {
  const errors: string[] = [];
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { errors: ['the summary must be a JSON object'] };
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!(SUMMARY_FIELDS as readonly string[]).includes(key)) errors.push(`unknown field "${key}"`);
  }
  if (typeof v.objective !== 'string') errors.push(v.objective === undefined ? 'missing field "objective"' : '"objective" must be a string');
  else if (v.objective.trim() === '') errors.push('"objective" must not be empty');
  for (const field of LIST_FIELDS) {
    const items = v[field];
    if (items === undefined) errors.push(`missing field "${field}"`);
    else if (!Array.isArray(items)) errors.push(`"${field}" must be a list of strings`);
    else items.forEach((item, i) => typeof item !== 'string' && errors.push(`${field}[${i}] must be a string`));
  }
  if (errors.length > 0) return { errors };
  const summary = emptySummary();
  summary.objective = v.objective as string;
  for (const field of LIST_FIELDS) summary[field] = [...(v[field] as string[])];
  return { summary, errors };
}

/** A stored summary of the oldest events, extended by a summary of the events folded since. */
export function mergeSummaries(base: SessionSummary, extra: SessionSummary): SessionSummary {
  const out: SessionSummary = { ...base, ...Object.fromEntries(LIST_FIELDS.map((f) => [f, [...base[f]]])) } as SessionSummary;
  for (const f of LIST_FIELDS) {
    if (f === 'next_step') continue;
    for (const item of extra[f]) if (!out[f].includes(item)) out[f].push(item);
  }
  out.next_step = extra.next_step.length > 0 ? [...extra.next_step] : out.next_step;
  return out;
}

/** The summary as the model reads it: a labelled YAML document. */
export function renderSummary(summary: SessionSummary, header?: string): string {
  const body = stringify(summary, { lineWidth: 0 }).trim();
  return header ? `# ${header}\n${body}` : body;
}
