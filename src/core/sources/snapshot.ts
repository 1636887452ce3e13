import { hostFs as fs, progressCounter } from '../host';
import * as path from 'node:path';
import { InputError } from '../errors';
import { defaultPolicy, parsePolicy, type Policy } from '../policy';
import type { SessionEvent, Warning } from '../types';
import { adrDirectories } from './adr';
import { DOCUMENT_EXTENSIONS, parseDocument, type DocumentFile } from './documents';
import { cachedDocument, knownDocument, knowsDocument } from './document-cache';
import { globMatcher } from './globs';
import { documentHoldsSecret, type KeptDocuments } from './kept-documents';
import { instructionFamily, readInstruction, type InstructionFile } from './instructions';
import { fsReason, readText, scanWorkspace, specialKind, type ScannedFile } from './scan';
import { resolveInWorkspace } from './guard';
import { offloadLocation } from '../offload/location';
import { loadToolResults, type ToolResult, type ToolResultSpec } from '../offload/results';
import { redactedFileLines } from '../trim/lines';
import { readPinsFile, resolvePinFiles, PINS_FILE, type StoredPin } from './pins';
import { mergeOverrides, overrideFor, readOverridesFile, OVERRIDES_FILE, type Overrides } from './overrides';
import { withoutSecrets } from '../redact/apply';
import { readSessionChecked } from '../session/file';
import type { WorkspaceReader } from './reader';
import { displayPath, loadTask, type Task } from './task-file';

export { displayPath, leadingLines, loadTask, type Task } from './task-file';
import { packagesOf } from './packages';
import { resolveSupersession } from './supersession';
import { CODE_EXTENSIONS, hasPointers, MAX_POINTED, MAX_POINTER_BYTES, MAX_POINTER_FILES, nameReason, pointerWeight, textReason } from '../task/pointers';
import { analyzeTask, wordsOf } from '../task/analyze';
import { gitReader, type ChangeReader, type CommitChange } from '../task/git';
import { resolveIdentifiers, resolveMentions, taskLooksLikeMissingFile } from '../task/mentions';
import { componentsOf, taskComponents, type PackageDir } from '../relevance/components';

/** Everything the chain reads from the workspace for one call, loaded once; the stages after this are pure. */
export interface Snapshot {
  root: string;
  policy: Policy;
  task: Task;
  files: ScannedFile[];
  /** Every instruction file of the families the policy enables (AGENTS.md, CLAUDE.md, Copilot, Cursor, Cline). */
  instructions: InstructionFile[];
  documents: DocumentFile[];
  /** `pointer`: why a file nothing names is read: what of the task it holds (task/pointers.ts). */
  sourceFiles: { path: string; text: string; pointer?: string }[];
  toolOutputs: ToolOutputFile[];
  /** Tool results returned together in this step (`--tool-result NAME=FILE`): the offload stage measures them. */
  toolResults?: ToolResult[];
  pins: Pin[];
  session: SessionEvent[];
  sessionSource?: string;
  warnings: Warning[];
  /** Package manifests below the root (`web/package.json` → component `storefront`). */
  packages?: PackageDir[];
  /** The workspace file whose text the pasted task is, left out of the documents. */
  pastedFrom?: string;
  /** Files changed in the working tree, and the last commits' changes (with hunks), from git. */
  changes?: { workingTree: string[]; commits: CommitChange[] };
  /** The user's include / exclude overrides (`.context/overrides.json`, then the call's own). */
  overrides?: Overrides;
}

/** A pinned block: the shape `.context/pins.json` stores (sources/pins.ts). */
export type Pin = StoredPin;

export interface ToolOutputFile {
  path: string;
  size: number;
  /** The file's mtime: with its path and size, the key of the cached trim (chain/trim-cache.ts). */
  mtimeMs?: number;
  format?: string;
  lines: () => Iterable<string>;
}

export interface SnapshotOptions {
  root: string;
  /** A path (absolute, or relative to `cwd`) or literal text. */
  task: string;
  cwd?: string;
  policyFile?: string;
  policy?: Policy;
  sessionFile?: string;
  pins?: Pin[];
  component?: string;
  /** Tool results returned together in this step, as `NAME=FILE` pairs (FILE relative to `cwd`). */
  toolResults?: ToolResultSpec[];
  /** The editor's context: active file, selected text, open editors (workspace-relative paths). */
  editor?: { activeFile?: string; selection?: string; openFiles?: string[] };
  /** How to read changed files; default: read-only git in `root`. `false`: none. */
  changes?: ChangeReader | false;
  /** Overrides of this call on top of `.context/overrides.json` (`ctxctl preview --include/--exclude`). */
  overrides?: Partial<Overrides>;
  /** How file text is read; default: the disk. The editor passes one that sees unsaved buffers. */
  reader?: WorkspaceReader;
  /** Documents parsed in an earlier run (the CLI's cache folder): an unchanged one is neither read nor parsed. Disk only. */
  kept?: KeptDocuments;
}

export const POLICY_FILE = '.context/policy.yaml';
export const SESSION_FILE = '.context/session.jsonl';
export { PINS_FILE };

/**
 * The policy: `--policy FILE`, else the workspace's `.context/policy.yaml`, else the default. A folder or an
 * unreadable file is bad input; a FIFO or device is never opened: named with `--policy` it is refused, in the
 * workspace it is skipped (the default policy applies and `policyFileWarnings` reports it).
 */
export function loadPolicy(root: string, policyFile?: string): Policy {
  const shown = policyFile ?? POLICY_FILE;
  // Through the workspace guard: `.context/policy.yaml` (or `.context` itself) linked out of the workspace, or a link
  // to a secret file, is refused; a policy the caller names outside the workspace (`--policy`) is read as named.
  const d = resolveInWorkspace(policyFile ?? POLICY_FILE, { root, base: policyFile ? process.cwd() : root, outsideAsNamed: Boolean(policyFile) });
  if (!d.ok) {
    if (d.kind === 'missing') {
      if (policyFile) throw new InputError('policy file not found', policyFile);
      return defaultPolicy();
    }
    if (d.kind === 'folder') throw new InputError('is a folder, not a policy file (YAML)', shown);
    if (d.kind === 'special') {
      if (policyFile) throw new InputError(`${d.why.replace(/: never opened$/, '')}, not a policy file: never opened`, shown);
      return defaultPolicy();
    }
    throw new InputError(d.why, shown);
  }
  let text: string;
  try {
    text = fs.readFileSync(d.abs, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read policy file: ${fsReason(e)}`, shown);
  }
  return parsePolicy(text, displayPath(root, d.abs));
}

/** The warning for a workspace policy file that is a FIFO or device (skipped, never opened), if it is one. */
export function policyFileWarnings(root: string): Warning[] {
  try {
    const st = fs.statSync(path.join(root, POLICY_FILE));
    return st.isFile() || st.isDirectory() ? [] : [{ source: POLICY_FILE, message: `skipped: ${specialKind(st) ?? 'not a regular file'}, never opened; the default policy applies` }];
  } catch {
    return [];
  }
}

/** The validated pins of `.context/pins.json` (texts as stored; whole-file pins are read by `resolvePinFiles`). */
export function loadPins(root: string): Pin[] {
  return readPinsFile(root).pins;
}

/** Read the workspace for one call. Throws InputError for bad input that makes the call meaningless (policy, task). */
export function loadSnapshot(options: SnapshotOptions): Snapshot {
  const root = path.resolve(options.root);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new InputError('workspace folder not found', options.root);
  const policy = options.policy ?? loadPolicy(root, options.policyFile);
  // A policy that points the offload store anywhere unsafe is refused before anything runs, and so is the store when
  // this call brings results that may be offloaded; otherwise the store is checked when it is first opened (assemble),
  // so a stray file in .context/offload never blocks a preview that would write nothing there.
  if (policy.offload.dir !== defaultPolicy().offload.dir || (options.toolResults?.length ?? 0) > 0) offloadLocation(root, policy);
  const task = loadTask(root, options.task, options.cwd);
  if (options.component) task.component = options.component;
  const toolGlob = globMatcher(policy.tool_output.globs, { dot: true });
  const formatOf = policy.tool_output.formats.map((f) => ({ test: globMatcher([f.match], { dot: true }), format: f.format }));
  // Logs and tool output stream: size is no reason to skip one.
  const maxTextBytes = 2 * 1024 * 1024;
  const sessionRel = options.sessionFile ? displayPath(root, path.resolve(options.sessionFile)) : SESSION_FILE;
  const streamable = (p: string) => toolGlob(p) || formatOf.some((f) => f.test(p));
  // The documents the loop below reads whole are read by the scan, once (no second open for the binary check);
  // a reader other than the disk's (an editor's unsaved buffers) reads them itself.
  const isDocument = (p: string) => p !== task.source && p !== sessionRel && !p.startsWith('.context/') && !instructionFamily(p) && !streamable(p) && DOCUMENT_EXTENSIONS.test(p);
  const readWhole = options.reader && !options.reader.disk ? undefined : (p: string, size: number) => size <= maxTextBytes && isDocument(p);
  const kept = options.reader && !options.reader.disk ? undefined : options.kept;
  // A version of a document kept (the CLI's kept documents) or parsed earlier in this process (the document cache: the
  // editor, a re-assembly) is text: the scan neither reads nor sniffs it, and the loop below does not read it.
  const onDisk = !options.reader || options.reader.disk === true;
  const knownText = !onDisk
    ? undefined
    : kept
      ? (p: string, size: number, mtimeMs: number) => size <= maxTextBytes && isDocument(p) && kept.knows(p, size, mtimeMs)
      : (p: string, size: number, mtimeMs: number) => size <= maxTextBytes && isDocument(p) && knowsDocument(root, { path: p, size, mtimeMs });
  const scanned = scanWorkspace(root, { exclude: policy.exclude, maxFileBytes: policy.max_file_bytes, streamable, readWhole, knownText });
  // A file the editor holds unsaved is the buffer's version: the caches below (documents, relevance) key it by the
  // buffer's size and time, never by the disk's, which would give back the parse of the text on disk.
  const unsaved = options.reader?.unsaved?.bind(options.reader);
  const scan = unsaved ? { ...scanned, files: scanned.files.map((f) => { const v = unsaved(f.path); return v ? { ...f, ...v } : f; }) } : scanned;
  const warnings: Warning[] = [...(options.policyFile || (options.policy && options.policy.origin !== 'defaults') ? [] : policyFileWarnings(root)), ...(task.warnings ?? []), ...scan.warnings];
  const missing = task.source === 'task' && !task.warnings?.length ? taskLooksLikeMissingFile(task.text) : undefined;
  if (missing) warnings.push({ source: 'task', message: `${missing} does not exist; treated as text` });
  task.signals = analyzeTask(withoutSecrets(task.text));
  if (options.editor) {
    // The selection's identifiers and paths count as the task's; the active and open files are anchors for closeness.
    const picked = analyzeTask(withoutSecrets(options.editor.selection ?? ''));
    task.signals = { ...task.signals, identifiers: [...new Set([...task.signals.identifiers, ...picked.identifiers])], paths: [...new Set([...task.signals.paths, ...picked.paths])], words: [...new Set([...task.signals.words, ...wordsOf(picked.identifiers.join(' '))])] };
    task.editor = { activeFile: options.editor.activeFile, openFiles: options.editor.openFiles ?? [] };
  }
  const stored = readOverridesFile(root);
  warnings.push(...stored.warnings);
  const overrides = mergeOverrides(stored.overrides, options.overrides ?? {});
  const paths = scan.files.map((f) => f.path);
  task.files = [...new Set([...task.files, ...resolveMentions(task.signals.paths, paths), ...resolveIdentifiers(task.signals.identifiers, paths)])];
  const reader = options.changes === false ? undefined : (options.changes ?? gitReader(root));
  const changes = reader ? { workingTree: reader.workingTree(), commits: reader.recentCommits(policy.relevance.recent_commits) } : undefined;
  warnings.push(...(reader?.warnings ?? []));
  const changedPaths = new Set([...(changes?.workingTree ?? []), ...(changes?.commits.map((c) => c.path) ?? []), ...(task.editor?.activeFile ? [task.editor.activeFile] : [])]);
  const priorityGlobs = globMatcher(policy.priorities.map((p) => p.match), { dot: true });
  const adr = adrDirectories(policy.sources.adr_dirs, { adrDir: readConfig(root, '.adr-dir'), log4brains: readConfig(root, '.log4brains.yml') });
  warnings.push(...adr.warnings);
  const adrDirs = adr.dirs.map((d) => d + '/');

  const snapshot: Snapshot = {
    root, policy, task, files: scan.files, instructions: [], documents: [], sourceFiles: [], toolOutputs: [],
    pins: [], session: [], warnings, changes, overrides,
    toolResults: loadToolResults(root, options.toolResults ?? [], policy, options.cwd),
  };
  if (options.pins) snapshot.pins = options.pins;
  else {
    const storedPins = readPinsFile(root);
    warnings.push(...storedPins.warnings);
    snapshot.pins = resolvePinFiles(root, storedPins.pins);
  }
  const returned = new Set(snapshot.toolResults?.map((r) => r.workspacePath));
  const tryRead = (file: ScannedFile, use: (text: string) => void) => {
    if (file.size > maxTextBytes) {
      warnings.push({ source: file.path, message: `skipped: ${file.size} bytes is too large to load as a document` });
      return;
    }
    try {
      const read = scan.texts.get(file.path);
      if (read !== undefined) scan.texts.delete(file.path);
      use(read ?? (options.reader ? options.reader.read(file.path) : readText(root, file.path)));
    } catch (e) {
      if (e instanceof InputError) warnings.push({ source: e.file ?? file.path, line: e.line, column: e.column, message: e.message });
      else warnings.push({ source: file.path, message: `cannot read: ${(e as Error).message}` });
    }
  };

  const isPastedTask = task.source === 'task' ? pastedTask(task.text) : undefined;
  const countRead = progressCounter('read', scan.files.length);
  for (const file of scan.files) {
    countRead?.();
    const p = file.path;
    if (p === task.source || p === sessionRel || p.startsWith('.context/')) continue;
    const family = instructionFamily(p);
    if (family) {
      if (policy.sources[family]) {
        tryRead(file, (text) => {
          const read = readInstruction(p, text, family);
          warnings.push(...read.warnings);
          snapshot.instructions.push(read.file);
        });
      }
    } else if (toolGlob(p) || formatOf.some((f) => f.test(p))) {
      if (!returned.has(p)) snapshot.toolOutputs.push({ path: p, size: file.size, mtimeMs: file.mtimeMs, format: formatOf.find((f) => f.test(p))?.format, lines: redactedFileLines(path.join(root, p)) });
    } else if (DOCUMENT_EXTENSIONS.test(p)) {
      const isDecision = adrDirs.some((d) => p.startsWith(d) || p.includes('/' + d));
      const use = (doc: DocumentFile) => {
        if (isPastedTask?.(doc.body)) {
          // The pasted task is this file's text: it is the task, not a document about it.
          snapshot.pastedFrom = p;
          return;
        }
        warnings.push(...(doc.warnings ?? []));
        snapshot.documents.push(doc);
      };
      const known = file.size > maxTextBytes || !onDisk ? undefined : kept ? kept.get(p, file.size, file.mtimeMs, isDecision) : knownDocument(root, file, isDecision);
      if (known) use(known);
      else {
        tryRead(file, (text) => {
          // The kept documents are the cache of a process that assembles once (the CLI): nothing to keep in this one.
          const parse = () => parseDocument(p, text, isDecision);
          const doc = kept ? parse() : cachedDocument(root, file, isDecision, parse);
          kept?.put(p, file.size, file.mtimeMs, isDecision, doc, text, documentHoldsSecret);
          use(doc);
        });
      }
    } else if (task.files.includes(p) || priorityGlobs(p) || changedPaths.has(p) || overrideFor(overrides, p) === 'include') {
      tryRead(file, (text) => snapshot.sourceFiles.push({ path: p, text }));
    }
  }
  // Source files the task points at by an identifier, a message, a code or an ADR it names (task/pointers.ts).
  const signals = task.signals;
  if (signals && hasPointers(signals)) {
    const taken = new Set(snapshot.sourceFiles.map((f) => f.path));
    const pointed: { path: string; text: string; pointer: string }[] = [];
    let read = 0;
    for (const file of scan.files) {
      const p = file.path;
      if (taken.has(p) || p === task.source || p.startsWith('.context/') || !CODE_EXTENSIONS.test(p) || instructionFamily(p) || toolGlob(p) || DOCUMENT_EXTENSIONS.test(p)) continue;
      if (file.size > MAX_POINTER_BYTES || read >= MAX_POINTER_FILES) continue;
      read++;
      tryRead(file, (text) => {
        const pointer = nameReason(p, signals) ?? textReason(text, signals);
        if (pointer) pointed.push({ path: p, text, pointer });
      });
    }
    pointed.sort((a, b) => pointerWeight(b.pointer) - pointerWeight(a.pointer) || a.path.localeCompare(b.path));
    snapshot.sourceFiles.push(...pointed.slice(0, MAX_POINTED));
  }
  // A file the chain would have read but could not (binary, unreadable, a FIFO or device) is reported, never lost.
  for (const skipped of scan.skipped) {
    const p = skipped.path;
    if (p === POLICY_FILE || p === PINS_FILE || p === OVERRIDES_FILE || p === sessionRel) continue; // reported by their own readers
    const wanted = instructionFamily(p) || toolGlob(p) || formatOf.some((f) => f.test(p)) || DOCUMENT_EXTENSIONS.test(p) || task.files.includes(p) || priorityGlobs(p);
    if (wanted) warnings.push({ source: p, message: `skipped: ${skipped.reason}; not in this request` });
  }
  if (snapshot.pastedFrom) warnings.push({ source: 'task', message: `the pasted task is the text of ${snapshot.pastedFrom}: that file is the task, not offered as a document` });
  snapshot.packages = packagesOf(root, scan.files);
  const known = new Set([...paths.flatMap((p) => componentsOf(p, undefined, snapshot.packages)), ...snapshot.documents.flatMap((d) => componentsOf(d.path, d.components, snapshot.packages))].map((c) => c.name));
  task.components = taskComponents(known, task.signals.words, task.files, task.component, snapshot.packages);
  const lifecycle = resolveSupersession(snapshot.documents);
  snapshot.documents = lifecycle.documents;
  warnings.push(...lifecycle.warnings);
  for (const wanted of task.files) {
    if (!scan.files.some((f) => f.path === wanted)) warnings.push({ source: task.source, message: `the task names "${wanted}", which is not in the workspace` });
  }
  const sessionAbs = options.sessionFile ? path.resolve(options.sessionFile) : path.join(root, SESSION_FILE);
  if (options.sessionFile && !fs.existsSync(sessionAbs)) throw new InputError('session file not found', options.sessionFile);
  const session = readSessionChecked(sessionAbs, options.sessionFile ?? sessionRel, sessionRel, { root, outsideAsNamed: Boolean(options.sessionFile) });
  snapshot.session = session.events;
  snapshot.sessionSource = session.events.length > 0 ? sessionRel : undefined;
  warnings.push(...session.warnings);
  return snapshot;
}

/**
 * Whether a document's text is the pasted task's: white space aside, the same text or most of its end. The task is
 * normalized once; a document with more visible characters than the normalized task cannot be either, and is told
 * after reading about as many characters as the task has (a workspace's documents are mostly far longer).
 */
export function pastedTask(taskText: string): (body: string) => boolean {
  const norm = (t: string) => t.replace(/\s+/g, ' ').trim();
  const task = norm(taskText);
  const space = /\s/;
  return (body) => {
    let visible = 0;
    for (let i = 0; i < body.length; i++) {
      const c = body.charCodeAt(i);
      const white = c < 0x80 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) : space.test(body[i]);
      if (!white && ++visible > task.length) return false;
    }
    const doc = norm(body);
    return doc.length > 0 && (doc === task || (task.endsWith(doc) && doc.length > 0.8 * task.length));
  };
}

/** A small configuration file at the workspace root (`.adr-dir`, `.log4brains.yml`), if there is one. */
function readConfig(root: string, name: string): string | undefined {
  const d = resolveInWorkspace(name, { root }); // a link leading out of the workspace, a FIFO or a folder is not read
  if (!d.ok || (d.size ?? 0) >= 64 * 1024) return undefined;
  try {
    return fs.readFileSync(d.abs, 'utf8');
  } catch {
    return undefined;
  }
}
