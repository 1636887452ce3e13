import type { HostileId, Layout } from './surfaces';

export type Surface =
  | 'mcp assemble_context task'
  | 'mcp assemble_context policy'
  | 'mcp read_document'
  | 'mcp inspect_offloaded'
  | 'cli preview --task'
  | 'cli preview --tool-result'
  | 'check: checks.yaml task'
  | '.context/pins.json entry'
  | '.context/overrides.json entry'
  | '.context/policy.yaml as a link'
  | '.context/checks.yaml as a link';

export interface Expected {
  /** Exit code; for an MCP answer 1 when isError, 0 when not. */
  code: number;
  message: string | ((l: Layout) => string);
  /**
   * The one deliberate exception: `--tool-result` with a file the caller names outside the workspace is that caller's
   * own tool output (a documented feature, tested in test/unit/offload), read as named; its content is expected.
   */
  readAsNamed?: true;
}

const refused = (code: number, message: string | ((l: Layout) => string)): Expected => ({ code, message });
const abs = (l: Layout) => l.arg.absolute;
const checksAt = (l: Layout) => `ctxctl: ${l.root}/.context/checks.yaml`;
const LINK_OUT = 'leads outside the workspace through a symbolic link: refused, never read';
const ENV_LINK = 'is a link to a secret file (.env): refused, never read';
const SECRET = 'is a secret file (by name): refused, never read';
const FIFO = 'is a FIFO (named pipe): never opened';
const FOLDER = 'is a folder, not a file: refused, never read';

/** What each surface now answers to each hostile path. */
export const EXPECTED: Record<Surface, Record<HostileId, Expected>> = {
  'mcp assemble_context task': {
    'passwd-link': refused(1, `task "passwd-link.txt" ${LINK_OUT}`),
    'outside-link': refused(1, `task "outside-link.txt" ${LINK_OUT}`),
    'dot-dot': refused(1, 'task names a file outside the workspace: "../outside.txt"'),
    absolute: refused(1, (l) => `task names a file outside the workspace: "${abs(l)}"`),
    env: refused(1, `task ".env" ${SECRET}`),
    'env-link': refused(1, `task "env-link.txt" ${ENV_LINK}`),
    // Not a file: the words are the task, the FIFO or folder is never opened (as before), and the trace says so.
    fifo: refused(0, 'task: "pipe.txt" names a FIFO, socket or device in the workspace, not a task file: taken as text, never opened'),
    folder: refused(0, 'task: "somedir" names a folder in the workspace, not a task file: taken as text, never opened'),
  },
  'mcp assemble_context policy': {
    'passwd-link': refused(1, `policy "passwd-link.txt" ${LINK_OUT}`),
    'outside-link': refused(1, `policy "outside-link.txt" ${LINK_OUT}`),
    'dot-dot': refused(1, 'policy must be a workspace-relative path, got "../outside.txt"'),
    absolute: refused(1, (l) => `policy must be a workspace-relative path, got "${abs(l)}"`),
    env: refused(1, `policy ".env" ${SECRET}`),
    'env-link': refused(1, `policy "env-link.txt" ${ENV_LINK}`),
    fifo: refused(1, `policy "pipe.txt" ${FIFO}`),
    folder: refused(1, `policy "somedir" ${FOLDER}`),
  },
  'mcp read_document': {
    'passwd-link': refused(1, 'read_document: "passwd-link.txt" is not returned: it is not an available document (<available-documents> lists what can be read)'),
    'outside-link': refused(1, 'read_document: "outside-link.txt" is not returned: it is not an available document (<available-documents> lists what can be read)'),
    'dot-dot': refused(1, 'read_document: "../outside.txt" is not returned: the path must be a workspace-relative path, as listed in <available-documents>'),
    absolute: refused(1, (l) => `read_document: "${abs(l)}" is not returned: the path must be a workspace-relative path, as listed in <available-documents>`),
    env: refused(1, 'read_document: ".env" is not returned: it is a secret file (by name): never read or sent'),
    'env-link': refused(1, 'read_document: "env-link.txt" is not returned: it is not an available document (<available-documents> lists what can be read)'),
    fifo: refused(1, 'read_document: "pipe.txt" is not returned: it is not an available document (<available-documents> lists what can be read)'),
    folder: refused(1, 'read_document: "somedir" is not returned: it is not an available document (<available-documents> lists what can be read)'),
  },
  'mcp inspect_offloaded': {
    'passwd-link': refused(1, 'inspect_offloaded: passwd-link.txt: outside the workspace and the offload store: not inspectable'),
    'outside-link': refused(1, 'inspect_offloaded: outside-link.txt: outside the workspace and the offload store: not inspectable'),
    'dot-dot': refused(1, 'inspect_offloaded: ../outside.txt: outside the workspace and the offload store: not inspectable'),
    absolute: refused(1, (l) => `inspect_offloaded: ${abs(l)}: outside the workspace and the offload store: not inspectable`),
    env: refused(1, '".env" is a secret file (by name): never read'),
    'env-link': refused(1, '"env-link.txt" is a secret file (by name): never read'),
    fifo: refused(1, `inspect_offloaded: pipe.txt: ${FIFO}`),
    folder: refused(1, '"somedir" is neither an offloaded result nor a readable workspace file'),
  },
  'cli preview --task': {
    'passwd-link': refused(2, `ctxctl: task "passwd-link.txt" ${LINK_OUT}`),
    'outside-link': refused(2, `ctxctl: task "outside-link.txt" ${LINK_OUT}`),
    'dot-dot': refused(2, 'ctxctl: task names a file outside the workspace: "../outside.txt"'),
    absolute: refused(2, (l) => `ctxctl: task names a file outside the workspace: "${abs(l)}"`),
    env: refused(2, `ctxctl: task ".env" ${SECRET}`),
    'env-link': refused(2, `ctxctl: task "env-link.txt" ${ENV_LINK}`),
    fifo: refused(0, 'task: "pipe.txt" names a FIFO, socket or device in the workspace, not a task file: taken as text, never opened'),
    folder: refused(0, 'task: "somedir" names a folder in the workspace, not a task file: taken as text, never opened'),
  },
  'cli preview --tool-result': {
    'passwd-link': refused(2, `ctxctl: passwd-link.txt: tool result ${LINK_OUT} (--tool-result probe=passwd-link.txt)`),
    'outside-link': refused(2, `ctxctl: outside-link.txt: tool result ${LINK_OUT} (--tool-result probe=outside-link.txt)`),
    'dot-dot': { code: 0, message: '(no warning)', readAsNamed: true },
    absolute: { code: 0, message: '(no warning)', readAsNamed: true },
    env: refused(2, 'ctxctl: .env: tool result is a secret file by name (--tool-result probe=.env): refused, never read or sent'),
    'env-link': refused(2, 'ctxctl: env-link.txt: tool result is a link to a secret file (--tool-result probe=env-link.txt): refused, never read or sent'),
    fifo: refused(2, `ctxctl: pipe.txt: tool result is not a file (--tool-result probe=pipe.txt): ${FIFO}`),
    folder: refused(2, `ctxctl: somedir: tool result is not a file (--tool-result probe=somedir): ${FOLDER}`),
  },
  'check: checks.yaml task': {
    'passwd-link': refused(2, (l) => `${checksAt(l)}:1: case "probe": task passwd-link.txt is outside the workspace (through a symbolic link)`),
    'outside-link': refused(2, (l) => `${checksAt(l)}:1: case "probe": task outside-link.txt is outside the workspace (through a symbolic link)`),
    'dot-dot': refused(2, (l) => `${checksAt(l)}:1: case "probe": task ../outside.txt is outside the workspace`),
    absolute: refused(2, (l) => `${checksAt(l)}:1: case "probe": task ${abs(l)} is outside the workspace`),
    env: refused(2, (l) => `${checksAt(l)}:1: case "probe": task .env ${SECRET}`),
    'env-link': refused(2, (l) => `${checksAt(l)}:1: case "probe": task env-link.txt ${ENV_LINK}`),
    fifo: refused(2, (l) => `${checksAt(l)}:1: case "probe": task pipe.txt ${FIFO}`),
    folder: refused(2, (l) => `${checksAt(l)}:1: case "probe": task somedir ${FOLDER}`),
  },
  '.context/pins.json entry': {
    'passwd-link': refused(0, 'passwd-link.txt: pinned block cannot be read (a symbolic link leading outside the workspace): it is NOT in this request; unpin it or restore the file'),
    'outside-link': refused(0, 'outside-link.txt: pinned block cannot be read (a symbolic link leading outside the workspace): it is NOT in this request; unpin it or restore the file'),
    'dot-dot': refused(0, '../outside.txt: pinned block cannot be read (outside the workspace): it is NOT in this request; unpin it or restore the file'),
    absolute: refused(0, (l) => `${abs(l)}: pinned block cannot be read (outside the workspace): it is NOT in this request; unpin it or restore the file`),
    env: refused(0, '.env: pinned block cannot be read (a secret file (by name) is never sent): it is NOT in this request; unpin it or restore the file'),
    'env-link': refused(0, 'env-link.txt: pinned block cannot be read (a secret file (by name) is never sent): it is NOT in this request; unpin it or restore the file'),
    fifo: refused(0, `pipe.txt: pinned block cannot be read (${FIFO}): it is NOT in this request; unpin it or restore the file`),
    folder: refused(0, 'somedir: pinned block cannot be read (not a regular file: never opened): it is NOT in this request; unpin it or restore the file'),
  },
  '.context/overrides.json entry': {
    'passwd-link': refused(2, `ctxctl: .context/overrides.json:1:25: "include" entry 1: "passwd-link.txt" ${LINK_OUT}`),
    'outside-link': refused(2, `ctxctl: .context/overrides.json:1:25: "include" entry 1: "outside-link.txt" ${LINK_OUT}`),
    'dot-dot': refused(2, 'ctxctl: .context/overrides.json:1:25: "include" entry 1: "../outside.txt" leads outside the workspace'),
    absolute: refused(2, (l) => `ctxctl: .context/overrides.json:1:25: "include" entry 1: "${abs(l)}" is absolute: use a path relative to the workspace`),
    env: refused(2, `ctxctl: .context/overrides.json:1:25: "include" entry 1: ".env" ${SECRET}`),
    'env-link': refused(2, `ctxctl: .context/overrides.json:1:25: "include" entry 1: "env-link.txt" ${ENV_LINK}`),
    fifo: refused(2, `ctxctl: .context/overrides.json:1:25: "include" entry 1: "pipe.txt" ${FIFO}`),
    // A folder is what an override may name (every file below it), inside the workspace: accepted, nothing outside read.
    folder: refused(0, '(accepted)'),
  },
  '.context/policy.yaml as a link': {
    'passwd-link': refused(2, `ctxctl: .context/policy.yaml: ${LINK_OUT}`),
    'outside-link': refused(2, `ctxctl: .context/policy.yaml: ${LINK_OUT}`),
    'dot-dot': refused(2, `ctxctl: .context/policy.yaml: ${LINK_OUT}`),
    absolute: refused(2, `ctxctl: .context/policy.yaml: ${LINK_OUT}`),
    env: refused(2, `ctxctl: .context/policy.yaml: ${ENV_LINK}`),
    'env-link': refused(2, `ctxctl: .context/policy.yaml: ${ENV_LINK}`),
    // As for a FIFO named policy.yaml (test/unit/redteam/policy.test.ts): never opened, the default policy applies.
    fifo: refused(0, '.context/policy.yaml: skipped: a FIFO (named pipe), never opened; the default policy applies'),
    folder: refused(2, 'ctxctl: .context/policy.yaml: is a folder, not a policy file (YAML)'),
  },
  '.context/checks.yaml as a link': {
    'passwd-link': refused(2, (l) => `${checksAt(l)}: ${LINK_OUT}`),
    'outside-link': refused(2, (l) => `${checksAt(l)}: ${LINK_OUT}`),
    'dot-dot': refused(2, (l) => `${checksAt(l)}: ${LINK_OUT}`),
    absolute: refused(2, (l) => `${checksAt(l)}: ${LINK_OUT}`),
    env: refused(2, (l) => `${checksAt(l)}: ${ENV_LINK}`),
    'env-link': refused(2, (l) => `${checksAt(l)}: ${ENV_LINK}`),
    fifo: refused(2, (l) => `${checksAt(l)}: ${FIFO}`),
    folder: refused(2, (l) => `${checksAt(l)}: ${FOLDER}`),
  },
};
