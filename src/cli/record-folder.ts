import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../core/errors';
import { readRegularFile } from './read-bounded';

/** The files `preview --out DIR` writes. */
export const RECORD_FILES = ['request.json', 'manifest.json', 'trace.txt'] as const;
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

/** What a manifest this program wrote always has (src/core/report/manifest.ts). */
function isOurManifest(value: unknown): value is { cache?: { prefix_hash?: string } } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  return m.version === 1 && typeof m.created_at === 'string' && typeof m.request_bytes === 'number' && !!m.budget && typeof m.budget === 'object' && Array.isArray(m.selected);
}

/**
 * Before `--out DIR` is written: a record folder holds this program's files only. A manifest.json there that is not
 * one of ours (or request.json / trace.txt with no manifest of ours beside them) is the user's, and is not
 * overwritten: exit 2 naming it. Returns the previous record's stable-prefix hash, so the trace says whether it changed.
 */
export function previousRecord(out: string): { prefixHash?: string } {
  const label = (name: string) => path.join(out, name);
  const refuse = (name: string, why: string): never => {
    throw new InputError(`${why}: not overwritten (choose another --out folder, or remove it)`, label(name));
  };
  let manifest: string | undefined;
  try {
    manifest = readRegularFile(path.join(out, 'manifest.json'), label('manifest.json'), MANIFEST_MAX_BYTES);
  } catch (e) {
    if (e instanceof InputError) refuse('manifest.json', e.message.replace(/: not read$/, ''));
    throw e;
  }
  if (manifest === undefined) {
    for (const name of RECORD_FILES) {
      if (readPresent(path.join(out, name))) refuse(name, 'is there, without a Context Control manifest.json beside it');
    }
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifest);
  } catch {
    parsed = undefined;
  }
  if (!isOurManifest(parsed)) refuse('manifest.json', 'is not a Context Control manifest');
  return { prefixHash: (parsed as { cache?: { prefix_hash?: string } }).cache?.prefix_hash };
}

function readPresent(abs: string): boolean {
  try {
    return fs.lstatSync(abs, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
