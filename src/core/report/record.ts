import { hostFs as fs, W_OK } from '../host';
import * as path from 'node:path';
import { redact, redactDeep } from '../redact/apply';
import { InputError } from '../errors';

/** The files of one call's record, as the CLI, the editor and the send loop all write them. */
export interface CallRecord {
  /** The exact request bytes. */
  request?: string;
  manifest?: unknown;
  trace?: string;
}

/** Kernel and device file systems: writing there is never what `--out` means, and can block. */
const SPECIAL_ROOTS = ['/proc', '/sys', '/dev'];

/** `EACCES: permission denied`: an fs error without the absolute path Node appends. */
function reason(e: unknown): string {
  return ((e as Error).message ?? String(e)).replace(/, \w+ '[^']*'( -> '[^']*')?$/, '');
}

/**
 * Make sure `dir` can hold a record: a folder (created if needed) that is not below a file, writable, and not in a
 * kernel file system. Bad input is one InputError naming the folder (`label` is the option that named it).
 */
export function prepareOutDir(dir: string, label = '--out'): string {
  const abs = path.resolve(dir);
  let existing = abs;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  let real = existing;
  try {
    real = fs.realpathSync(existing);
  } catch {
    real = existing;
  }
  const special = SPECIAL_ROOTS.find((r) => real === r || real.startsWith(r + '/'));
  if (special) throw new InputError(`${label}: ${special} is a special file system, not a folder for records`, dir);
  try {
    const st = fs.statSync(existing);
    if (!st.isDirectory()) throw new InputError(`${label}: ${existing === abs ? 'is a file' : `is below a file (${existing})`}, not a folder`, dir);
    fs.mkdirSync(abs, { recursive: true });
    fs.accessSync(abs, W_OK);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${label}: cannot write here (${reason(e)})`, dir);
  }
  return abs;
}

/**
 * Write `request.json` (the exact bytes), `manifest.json` and `trace.txt` into `dir`; `clean` filters the text
 * files. Every file passes the redaction rule set on its way out (render already redacted the request, so its
 * bytes are unchanged; the send loop's own additions to the manifest and trace, such as answers and errors, are not).
 */
export function writeRecord(dir: string, record: CallRecord, clean: (s: string) => string = (s) => s): string[] {
  prepareOutDir(dir);
  const written: string[] = [];
  const put = (name: string, text: string) => {
    const file = path.join(dir, name);
    try {
      const st = fs.lstatSync(file, { throwIfNoEntry: false });
      if (st && !st.isFile()) throw new InputError(`${name} exists and is not a regular file: not overwritten`, dir);
      fs.writeFileSync(file, text);
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`cannot write ${name} (${reason(e)})`, dir);
    }
    written.push(name);
  };
  if (record.request !== undefined) put('request.json', redact(record.request).text);
  if (record.manifest !== undefined) put('manifest.json', clean(JSON.stringify(redactDeep(record.manifest), null, 2)) + '\n');
  if (record.trace !== undefined) put('trace.txt', clean(redact(record.trace).text));
  return written;
}

/** The list, kept in the output folder, of the files a send wrote there: only these may be removed later. */
export const WRITTEN_LIST = '.ctxctl-written.json';

/**
 * After a send wrote `files` (relative to `dir`), remove what its previous run wrote and this one did not (the
 * steps of a longer run), and remember the new list. A file the list does not name is never removed: a user's
 * `steps/notes.txt`, or a `steps/` folder that predates Context Control, survives.
 */
export function replaceWritten(dir: string, files: string[]): string[] {
  const listFile = path.join(dir, WRITTEN_LIST);
  let previous: string[] = [];
  try {
    const raw: unknown = JSON.parse(fs.readFileSync(listFile, 'utf8'));
    if (Array.isArray(raw)) previous = raw.filter((f): f is string => typeof f === 'string');
  } catch {
    previous = [];
  }
  const keep = new Set(files);
  const removed: string[] = [];
  for (const rel of previous) {
    const norm = path.normalize(rel);
    if (keep.has(rel) || path.isAbsolute(norm) || norm.startsWith('..')) continue;
    const abs = path.join(dir, norm);
    const st = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (!st?.isFile()) continue;
    fs.rmSync(abs);
    removed.push(rel);
    for (let d = path.dirname(abs); d !== dir && d.startsWith(dir + path.sep); d = path.dirname(d)) {
      try {
        fs.rmdirSync(d);
      } catch {
        break;
      }
    }
  }
  fs.writeFileSync(listFile, JSON.stringify(files, null, 2) + '\n');
  return removed;
}
