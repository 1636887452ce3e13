import type { NeutralRequest } from '../chain/render';
import { toAnthropicBody } from './anthropic-shape';
import { toOpenAIBody } from './openai-shape';
import { toVscodeLmBody } from './vscode-lm-shape';

export type WireShape = 'openai' | 'anthropic' | 'vscode-lm';
/** The HTTP wire shapes (what `ctxctl preview --shape` accepts); `vscode-lm` is only spoken inside the editor. */
export const WIRE_SHAPES: readonly WireShape[] = ['openai', 'anthropic'];

/** The body a provider would send, as an object. */
export function shapeRequest(req: NeutralRequest, shape: WireShape, stream = false): object {
  if (shape === 'vscode-lm') return toVscodeLmBody(req);
  return shape === 'anthropic' ? toAnthropicBody(req, stream) : toOpenAIBody(req, stream);
}

/** The exact bytes of the request body: what `final` is counted on and what a provider sends. */
export function serializeRequest(req: NeutralRequest, shape: WireShape, stream = false): string {
  return JSON.stringify(shapeRequest(req, shape, stream));
}
