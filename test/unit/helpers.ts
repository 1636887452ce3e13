import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeBlock } from '../../src/core/chain/collect';
import { render } from '../../src/core/chain/render';
import { defaultPolicy, type Policy } from '../../src/core/policy';
import { serializeRequest } from '../../src/core/providers/shape';
import { counterFor } from '../../src/core/tokens';
import type { Block, BlockKind, BlockMeta, Trust } from '../../src/core/types';

export const REPO = path.resolve(__dirname, '..', '..', '..');

/** Every file path under this repository (sources, tests, docs, node_modules, the build), `/`-separated: names nobody chose for a test. */
export function repoPaths(): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && e.name !== '.git') walk(path.join(dir, e.name), r);
      else out.push(r);
    }
  };
  walk(REPO, '');
  return out;
}
export const EXAMPLE = path.join(REPO, 'examples', 'payment-incident');
export const counter = counterFor('o200k_base');

const TRUST: Record<BlockKind, Trust> = {
  system_instructions: 'harness', tool_definitions: 'harness', current_task: 'user', agents_md: 'project-rule', pinned: 'user',
  session_summary: 'session', index: 'harness', session_group: 'session', decision: 'project-document', document: 'project-document',
  source_code: 'project-source', tool_result: 'tool-output',
};

/** A block with exact tokens, as the chain would hand it to `enforce`. */
export function block(kind: BlockKind, source: string, text: string, opts: { priority?: number; meta?: BlockMeta; policy?: Policy } = {}): Block {
  const b = makeBlock(opts.policy ?? defaultPolicy(), kind, source, TRUST[kind], text, opts.meta ?? {}, opts.priority);
  b.tokens = counter.count(text);
  b.exact = true;
  return b;
}

export function countRequest(blocks: Block[]): number {
  return counter.count(serializeRequest(render(blocks, 'gpt-4o', 2000), 'openai', true));
}
