import { redact, redactDeep } from './apply';

/**
 * The one redaction pass of every output that leaves the process: request, manifest, trace, stdout and stderr,
 * the JUnit file, GitHub annotations, MCP results, hook output, gateway records. Each surface calls one of these
 * on the text (or the value) it is about to write, after it is built and before any escaping of its own format
 * (`%0A` of workflow commands, XML entities of JUnit), so that a secret is matched as it was written. The rule set
 * is rules.ts; a placeholder `[REDACTED:rule]` holds no character any of those formats escapes.
 */

/** A text as it may be written or sent: every secret replaced by its placeholder. Idempotent. */
export function redactOutput(text: string): string {
  return redact(text).text;
}

/** A JSON-like value whose strings (keys included) are redacted, for a surface that serialises it afterwards. */
export function redactOutputValue<T>(value: T): T {
  return redactDeep(value);
}

/** A writer (stdout, stderr, a stream's write) that redacts each text it is given before writing it. */
export function redactingWriter(write: (text: string) => void): (text: string) => void {
  return (text) => write(redactOutput(text));
}
