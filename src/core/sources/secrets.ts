/** Secrets found in workspace text are replaced before anything is counted, shown or sent. */

const PATTERNS: { kind: string; re: RegExp }[] = [
  { kind: 'private-key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { kind: 'aws-access-key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'github-token', re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}\b/g },
  { kind: 'openai-key', re: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b/g },
  { kind: 'slack-token', re: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g },
  { kind: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g },
  {
    kind: 'assigned-secret',
    re: /\b([A-Za-z0-9_]*(?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)[A-Za-z0-9_]*)(\s*[:=]\s*)(["']?)([^\s"'`]{8,})\3/gi,
  },
];

export interface SecretFinding {
  kind: string;
  line: number;
}

export function redactSecrets(text: string): { text: string; found: SecretFinding[] } {
  const found: SecretFinding[] = [];
  let out = text;
  for (const { kind, re } of PATTERNS) {
    out = out.replace(re, (match: string, ...groups: unknown[]) => {
      const offset = groups[groups.length - 2] as number;
      const line = out.slice(0, offset).split('\n').length;
      if (kind === 'assigned-secret') {
        const [name, sep, quote, value] = groups as string[];
        if (/^(\$\{|<|\*+$|x+$|changeme|example|placeholder|redacted)/i.test(value)) return match;
        found.push({ kind, line });
        return `${name}${sep}${quote}[REDACTED:${kind}]${quote}`;
      }
      found.push({ kind, line });
      return `[REDACTED:${kind}]`;
    });
  }
  found.sort((a, b) => a.line - b.line);
  return { text: out, found };
}

const KEY_BEGIN = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const KEY_END = /-----END [A-Z ]*PRIVATE KEY-----/;

/**
 * Redact a stream of lines, for text read line by line (logs, tool output, search): single-line secrets as in
 * `redactSecrets`, and a private key block whole, from its BEGIN line to its END line.
 */
export function redactLines(lines: () => Iterable<string>): () => Iterable<string> {
  return () => ({
    *[Symbol.iterator]() {
      let inKey = false;
      for (const line of lines()) {
        if (inKey) {
          if (KEY_END.test(line)) {
            inKey = false;
            yield line.replace(/^.*?-----END [A-Z ]*PRIVATE KEY-----/, '[REDACTED:private-key]');
          }
          continue;
        }
        if (KEY_BEGIN.test(line) && !KEY_END.test(line)) {
          inKey = true;
          yield line.replace(/-----BEGIN [A-Z ]*PRIVATE KEY-----.*$/, '[REDACTED:private-key…]');
          continue;
        }
        yield line.length > 0 && mayHoldSecret(line) ? redactSecrets(line).text : line;
      }
    },
  });
}

/** A cheap pre-check so that redaction costs little on the millions of lines of a big log. */
const HINT = /AKIA|ASIA|gh[pousr]_|github_pat_|sk-|xox[abprs]-|AIza|eyJ|PRIVATE KEY|pass|secret|key|token/i;
function mayHoldSecret(line: string): boolean {
  return HINT.test(line);
}

/** How many secrets a text had redacted (placeholders in it). */
export function countRedactions(text: string): number {
  return (text.match(/\[REDACTED:[a-z-]+…?\]/g) ?? []).length;
}
