import picomatch from 'picomatch';
import type { Policy } from '../policy';
import type { Snapshot } from '../sources/snapshot';
import { redactSecrets } from '../sources/secrets';
import { estimateTokens } from '../tokens';
import { TOOL_DEFINITIONS } from '../tools';
import type { Block, BlockKind, BlockMeta, StageResult, Trust, Warning } from '../types';

/** Default priorities by kind when no policy glob matches (higher = kept first). */
const KIND_PRIORITY: Partial<Record<BlockKind, number>> = { decision: 60, source_code: 50, tool_result: 50, document: 40 };

export function priorityFor(policy: Policy, source: string, kind: BlockKind, own?: number): number {
  if (own !== undefined) return own;
  for (const rule of policy.priorities) {
    if (rule.match === source || picomatch.isMatch(source, rule.match, { dot: true })) return rule.priority;
  }
  return KIND_PRIORITY[kind] ?? 0;
}

export function makeBlock(
  policy: Policy,
  kind: BlockKind,
  source: string,
  trust: Trust,
  text: string,
  meta: BlockMeta = {},
  priority?: number,
): Block {
  return {
    id: `${kind}:${source}`,
    kind,
    source,
    trust,
    priority: priorityFor(policy, source, kind, priority),
    mandatory: policy.mandatory.includes(kind),
    text,
    tokens: estimateTokens(text),
    exact: false,
    meta,
  };
}

/** An AGENTS.md applies at the root, or when one of the task's files lies below its folder. */
function agentsApply(agentsPath: string, taskFiles: string[]): boolean {
  const dir = agentsPath.includes('/') ? agentsPath.slice(0, agentsPath.lastIndexOf('/') + 1) : '';
  return dir === '' || taskFiles.some((f) => f.startsWith(dir));
}

export interface Collected {
  blocks: Block[];
  /** Tool output still as files: the trim stage decides what of them is read and kept. */
  toolOutputs: Snapshot['toolOutputs'];
}

/** Turn the snapshot into candidate blocks. Secrets found in text are redacted and reported. */
export function collect(snapshot: Snapshot): StageResult<Collected> {
  const { policy, task } = snapshot;
  const warnings: Warning[] = [];
  const clean = (source: string, text: string) => {
    const { text: out, found } = redactSecrets(text);
    for (const f of found) warnings.push({ source, line: f.line, message: `secret redacted (${f.kind}): not sent` });
    return out;
  };
  const blocks: Block[] = [];
  blocks.push(makeBlock(policy, 'system_instructions', 'builtin:system', 'harness', policy.system_instructions));
  blocks.push(makeBlock(policy, 'tool_definitions', 'builtin:tools', 'harness', JSON.stringify(TOOL_DEFINITIONS)));

  const agents = snapshot.agents
    .filter((a) => agentsApply(a.path, task.files))
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path));
  for (const a of agents) blocks.push(makeBlock(policy, 'agents_md', a.path, 'project-rule', clean(a.path, a.text.trim())));
  const skipped = snapshot.agents.filter((a) => !agents.includes(a));

  for (const pin of snapshot.pins) {
    const where = pin.startLine ? `${pin.source}#L${pin.startLine}-L${pin.endLine ?? pin.startLine}` : pin.source;
    const block = makeBlock(policy, 'pinned', where, 'user', clean(pin.source, pin.text), { title: pin.label });
    block.id = `pinned:${pin.id}`;
    blocks.push(block);
  }

  for (const doc of snapshot.documents) {
    const kind: BlockKind = doc.decision ? 'decision' : 'document';
    blocks.push(
      makeBlock(policy, kind, doc.path, 'project-document', clean(doc.path, doc.body.trim()), {
        title: doc.title,
        summary: doc.summary,
        components: doc.components,
        tags: doc.tags,
        status: doc.decision?.status ?? doc.status,
        id: doc.decision?.id,
        supersededBy: doc.decision?.supersededBy[0],
        supersedes: doc.decision?.supersedes,
      }, doc.priority),
    );
  }
  for (const file of snapshot.sourceFiles) {
    const named = task.files.includes(file.path);
    blocks.push(makeBlock(policy, 'source_code', file.path, 'project-source', clean(file.path, file.text), {
      title: file.path.replace(/^.*\//, ''),
      components: task.component && named ? [task.component] : undefined,
    }));
  }
  blocks.push(makeBlock(policy, 'current_task', task.source, 'user', clean(task.source, task.text), { components: task.component ? [task.component] : undefined }));
  return {
    value: { blocks, toolOutputs: snapshot.toolOutputs },
    decisions: {
      warnings,
      rejected: skipped.map((a) => ({ source: a.path, kind: 'agents_md' as const, reason: 'AGENTS.md does not apply: no file of the task lies below its folder' })),
    },
  };
}
