import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { renderIndex } from '../core/chain/render';
import { listAvailable } from '../core/disclose';
import { InputError } from '../core/errors';
import { ContextEngine } from '../core/engine';
import { diskHost } from '../host/disk';

/**
 * `ctxctl index --workspace DIR [--json]`: the progressive-disclosure index, i.e. what `read_document` can fetch,
 * as the `<available-documents>` block the model receives (or, with --json, as data with the rejections and warnings).
 */

export const INDEX_USAGE = 'ctxctl index --workspace DIR [--component NAME] [--policy FILE] [--json]';

const HELP = `Usage:
  ${INDEX_USAGE}

  Lists the documents available on demand (path, title, summary, tags, estimated tokens). Retired decisions
  (superseded, deprecated, rejected) are left out; with --component, so are documents of other components.
  --json   print one JSON object: {"workspace", "component", "documents", "rejected", "warnings"}
`;

export function indexCommand(argv: string[], stdout: (s: string) => void): number {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: { workspace: { type: 'string' }, component: { type: 'string' }, policy: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
      strict: true,
    }).values;
  } catch (e) {
    throw new InputError(`${(e as Error).message}\nUsage: ${INDEX_USAGE}`);
  }
  if (values.help) {
    stdout(HELP);
    return 0;
  }
  if (typeof values.workspace !== 'string') throw new InputError(`--workspace DIR is required\nUsage: ${INDEX_USAGE}`);
  const component = typeof values.component === 'string' ? values.component : undefined;
  const snapshot = new ContextEngine(diskHost, path.resolve(values.workspace)).load({ task: '', policyFile: values.policy as string | undefined, component, changes: false });
  const listed = listAvailable(snapshot);
  if (values.json) {
    const documents = listed.value.map((e) => ({ path: e.path, title: e.title, summary: e.summary, tags: e.tags ?? [], estimated_tokens: e.estimatedTokens }));
    stdout(JSON.stringify({ workspace: values.workspace, component, documents, rejected: listed.decisions.rejected ?? [], warnings: listed.decisions.warnings ?? [] }, null, 2) + '\n');
  } else stdout(renderIndex(listed.value) + '\n');
  return 0;
}
