import { redact, redactLines } from '../redact/apply';
import { fileLines } from '../sources/line-reader';

/**
 * What the offload store writes: a payload without its secrets. Secrets found in files are never written, so a
 * tool result that holds one is stored as Context Control reads it (its lines redacted as `inspect_offloaded` and the
 * digest show them: the same line numbers), not byte for byte. A result with no secret is stored as it is.
 */
export type Storable = { file: string } | { text: string } | { lines: () => Iterable<string> };

/** The clip mark of a line too long to read whole (line-reader.ts): its middle was never checked for secrets. */
const CLIPPED = /…\[\d+ chars clipped\]…/;

/** `payload` as the store may write it: unchanged when nothing in it is a secret, its redacted text or lines otherwise. */
export function storable(payload: { file: string } | { text: string }): Storable {
  if ('text' in payload) {
    const r = redact(payload.text);
    return r.found.length === 0 ? payload : { text: r.text };
  }
  const redacted = redactLines(() => fileLines(payload.file));
  return holdsSecretLines(payload.file, redacted) ? { lines: redacted } : payload;
}

/** True when the redacted lines differ from the file's own (a secret, a key block) or a line was clipped. */
function holdsSecretLines(file: string, redacted: () => Iterable<string>): boolean {
  const raw = fileLines(file)[Symbol.iterator]();
  try {
    for (const line of redacted()) {
      const own = raw.next();
      if (own.done || own.value !== line || CLIPPED.test(line)) return true;
    }
    return raw.next().done !== true;
  } finally {
    raw.return?.();
  }
}
