import { hostFs as fs } from '../host';
import * as path from 'node:path';
import type { CallRecord } from './record';
import { writeWhole } from '../write-whole';

/**
 * The gateway's records: one JSON file per call in `<workspace>/.context/gateway/`, git-ignored, the newest
 * `keep` kept (policy `gateway.keep_calls`, default 200). Only files named like a record are ever removed.
 */

export const GATEWAY_DIR = '.context/gateway';
export const DEFAULT_KEEP_CALLS = 200;
const NAME = /^call-\d{8}T\d{9}Z-\d{6}-[a-z]+\.json$/;
const IGNORE = '# Agent calls recorded by ctxctl gateway: never committed.\n*\n';

export function recordsDir(root: string): string {
  return path.join(root, GATEWAY_DIR);
}

export function ensureRecordsDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const ignore = path.join(dir, '.gitignore');
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, IGNORE);
}

/** `call-20261201T193000123Z-000001-anthropic.json`: sorted by name is sorted by time. */
export function recordName(record: Pick<CallRecord, 'at' | 'api'>, seq: number): string {
  const stamp = record.at.replace(/[-:]/g, '').replace('.', '');
  return `call-${stamp}-${String(seq % 1_000_000).padStart(6, '0')}-${record.api}.json`;
}

/** Write one record (atomically) and drop the oldest beyond `keep`; returns the file written. */
export function writeCallRecord(dir: string, record: CallRecord, seq: number, keep = DEFAULT_KEEP_CALLS): string {
  ensureRecordsDir(dir);
  const file = path.join(dir, recordName(record, seq));
  writeWhole(file, JSON.stringify(record, null, 1) + '\n');
  const names = recordFiles(dir);
  for (const old of names.slice(0, Math.max(0, names.length - keep))) fs.rmSync(path.join(dir, old), { force: true });
  return file;
}

export function recordFiles(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => NAME.test(n)).sort();
  } catch {
    return [];
  }
}

/** One line of `ctxctl gateway calls`. */
export interface CallSummary {
  file: string;
  at: string;
  api: string;
  model?: string;
  mode: string;
  status?: number;
  conversation?: string;
  tokens?: number;
  window?: number;
  usage?: CallRecord['usage'];
  changes: CallRecord['changes'];
  pins: CallRecord['pins'];
  prefix_stable: boolean | null;
  received_prefix_stable: boolean | null;
  prefix_broken_by_gateway: boolean;
  error?: string;
}

export function listCalls(dir: string): CallSummary[] {
  const out: CallSummary[] = [];
  for (const file of recordFiles(dir)) {
    try {
      const r = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CallRecord;
      out.push({ file, at: r.at, api: r.api, model: r.model, mode: r.mode, status: r.status, conversation: r.conversation, tokens: r.tokens?.total, window: r.window, usage: r.usage, changes: r.changes ?? [], pins: r.pins ?? { present: [], added: [] }, prefix_stable: r.prefix_stable ?? null, received_prefix_stable: r.received_prefix_stable ?? null, prefix_broken_by_gateway: r.prefix_broken_by_gateway ?? false, ...(r.error ? { error: r.error } : {}) });
    } catch {
      // a record being written, or not one of ours: skipped
    }
  }
  return out;
}
