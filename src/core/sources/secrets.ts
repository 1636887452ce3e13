/**
 * Secrets found in workspace text are replaced before anything is counted, shown or sent. The rule set and the
 * pass live in `../redact`; these names stay for the readers that stream lines (snapshot, offload, tools).
 */
import { redact } from '../redact/apply';

export { countRedactions, redactLines } from '../redact/apply';

export interface SecretFinding {
  kind: string;
  line: number;
}

export function redactSecrets(text: string): { text: string; found: SecretFinding[] } {
  const r = redact(text);
  return { text: r.text, found: r.found.map((f) => ({ kind: f.rule, line: f.line })) };
}
