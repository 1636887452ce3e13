import { makeBlock } from '../chain/collect';
import { wrap } from '../chain/render';
import type { Policy } from '../policy';

/**
 * A tool's answer as an agent receives it through MCP (read_document, search_workspace, inspect_offloaded): the
 * text as the tool loop admitted it (trimmed or offloaded), in a `<tool-output source=… trust="tool-output">` element,
 * escaped and redacted by the same function as the tool output of assemble_context and of every request (render's
 * `wrap`), so a document holding `</document>`, `<\u200b/document>` or `</tool-output>` cannot close its wrapper and
 * no secret leaves unredacted. An offloaded answer says where its full text is, as the request's tool output does.
 */
export function wrapToolAnswer(policy: Policy, source: string, text: string, offloaded?: { path: string; tokens: number }): string {
  return wrap(makeBlock(policy, 'tool_result', source, 'tool-output', text, offloaded ? { offload: offloaded } : {}));
}
