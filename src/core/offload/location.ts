import { hostFs as fs } from '../host';
import * as path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { InputError } from '../errors';
import type { Policy } from '../policy';
import { resolveInWorkspace } from '../sources/guard';
import { storeRefusal } from './store';

const DEFAULT_SOURCE = '.context/policy.yaml';

/**
 * Where the workspace's offload store lives (policy `offload.dir`), checked through symbolic links before anything
 * is written or removed there: a folder strictly inside the workspace, never the workspace itself, `.git` or
 * anything in it, `.context` itself, nor an existing folder holding files Context Control did not write. A refusal
 * is an InputError at the policy's `offload.dir` line (or at the default path when the policy does not set it).
 */
export function offloadLocation(root: string, policy: Policy): string {
  const dir = policy.offload.dir;
  const refuse = (why: string): never => {
    const at = policyLine(root, policy.origin);
    if (at) throw new InputError(`offload.dir "${dir}" ${why}`, at.file, at.line, at.column);
    throw new InputError(`the offload store ${why}`, dir);
  };
  const realRoot = realOrSelf(path.resolve(root));
  const abs = path.resolve(root, dir);
  // The nearest folder that exists, resolved through links, plus the part still to be created.
  let existing = abs;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  if (existing !== abs && !fs.statSync(existing).isDirectory()) refuse(`is below a file (${path.relative(root, existing) || existing}), not a folder: refused`);
  // Through the workspace guard (sources/guard.ts): the folder, links resolved, must be in the workspace.
  const d = resolveInWorkspace(dir, { root, expect: 'any', mayBeMissing: true, refuseSecrets: false });
  if (!d.ok && (d.kind === 'outside' || d.kind === 'link-outside')) refuse('leads outside the workspace (through a symbolic link or a path): refused');
  const real = d.ok ? d.real : path.join(realOrSelf(existing), path.relative(existing, abs));
  const rel = path.relative(realRoot, real);
  if (rel === '') refuse('is the workspace folder itself: refused');
  if (rel.startsWith('..') || path.isAbsolute(rel)) refuse('leads outside the workspace (through a symbolic link or a path): refused');
  const parts = rel.split(path.sep);
  if (parts.includes('.git')) refuse('is inside .git: refused');
  if (rel === '.context') refuse('is .context itself: refused (use a folder below it, e.g. .context/offload)');
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) refuse('is not a folder: refused');
  const refused = st ? storeRefusal(abs) : undefined;
  if (refused) refuse(refused);
  return abs;
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** The file and line of `offload.dir` in the policy that set it; undefined when no policy file sets it. */
function policyLine(root: string, origin: string | undefined): { file: string; line?: number; column?: number } | undefined {
  const file = origin && origin !== 'defaults' ? origin : (fs.existsSync(path.join(root, DEFAULT_SOURCE)) ? DEFAULT_SOURCE : undefined);
  if (!file) return undefined;
  try {
    if (!fs.statSync(path.resolve(root, file)).isFile()) return undefined; // never open a FIFO
    const text = fs.readFileSync(path.resolve(root, file), 'utf8');
    const counter = new LineCounter();
    const doc = parseDocument(text, { lineCounter: counter });
    const node = doc.getIn(['offload', 'dir'], true) as { range?: [number, number, number] } | undefined;
    if (!node?.range) return undefined;
    const pos = counter.linePos(node.range[0]);
    return { file, line: pos.line, column: pos.col };
  } catch {
    return undefined;
  }
}
