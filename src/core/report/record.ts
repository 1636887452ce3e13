import * as fs from 'node:fs';
import * as path from 'node:path';
import { redact, redactDeep } from '../redact/apply';

/** The files of one call's record, as the CLI, the editor and the send loop all write them. */
export interface CallRecord {
  /** The exact request bytes. */
  request?: string;
  manifest?: unknown;
  trace?: string;
}

/**
 * Write `request.json` (the exact bytes), `manifest.json` and `trace.txt` into `dir`; `clean` filters the text
 * files. Every file passes the redaction rule set on its way out (render already redacted the request, so its
 * bytes are unchanged; the send loop's own additions to the manifest and trace, such as answers and errors, are not).
 */
export function writeRecord(dir: string, record: CallRecord, clean: (s: string) => string = (s) => s): void {
  fs.mkdirSync(dir, { recursive: true });
  if (record.request !== undefined) fs.writeFileSync(path.join(dir, 'request.json'), redact(record.request).text);
  if (record.manifest !== undefined) fs.writeFileSync(path.join(dir, 'manifest.json'), clean(JSON.stringify(redactDeep(record.manifest), null, 2)) + '\n');
  if (record.trace !== undefined) fs.writeFileSync(path.join(dir, 'trace.txt'), clean(redact(record.trace).text));
}
