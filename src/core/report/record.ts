import * as fs from 'node:fs';
import * as path from 'node:path';

/** The files of one call's record, as the CLI, the editor and the send loop all write them. */
export interface CallRecord {
  /** The exact request bytes. */
  request?: string;
  manifest?: unknown;
  trace?: string;
}

/** Write `request.json` (the exact bytes), `manifest.json` and `trace.txt` into `dir`; `clean` filters the text files. */
export function writeRecord(dir: string, record: CallRecord, clean: (s: string) => string = (s) => s): void {
  fs.mkdirSync(dir, { recursive: true });
  if (record.request !== undefined) fs.writeFileSync(path.join(dir, 'request.json'), record.request);
  if (record.manifest !== undefined) fs.writeFileSync(path.join(dir, 'manifest.json'), clean(JSON.stringify(record.manifest, null, 2)) + '\n');
  if (record.trace !== undefined) fs.writeFileSync(path.join(dir, 'trace.txt'), clean(record.trace));
}
