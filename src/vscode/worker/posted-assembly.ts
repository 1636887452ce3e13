/**
 * An assembly as it crosses from the worker to the extension host. The wire body and its serialized text are left
 * out: both are the neutral request shaped for the provider, and each is copied whole across the thread (at 531k
 * tokens sent, about 7 MB apiece: some 14 ms of the worker's time and 5 ms of the host's per preview). The host shapes
 * them again only when something reads them (Copy, a dry-run Send, the chat's count): the same body, and the same
 * bytes, since the chain's serialized request is `JSON.stringify(request)` (test/unit/engine/adapters.test.ts).
 * No `vscode`: both sides use it.
 */
import type { Assembly } from '../../core/chain/pipeline';
import { shapeRequest } from '../../core/providers/shape';
import type { OpName, OpResult } from './ops-protocol';

/** What the worker posts for an assembly: everything but `request` and `serialized`. */
export type PostedAssembly = Omit<Assembly, 'request' | 'serialized'>;

/** The assembly without its wire body and serialized text (the worker side). */
export function toPosted(assembly: Assembly): PostedAssembly {
  const { request: _request, serialized: _serialized, ...rest } = assembly;
  return rest;
}

/** The assembly again (the host side): `request` and `serialized` are worked out once, when first read. */
export function fromPosted(posted: PostedAssembly): Assembly {
  const assembly = posted as Assembly;
  let request: object | undefined;
  let serialized: string | undefined;
  Object.defineProperty(assembly, 'request', { enumerable: true, configurable: true, get: () => (request ??= shapeRequest(posted.neutral, posted.wire.shape, posted.wire.stream)) });
  Object.defineProperty(assembly, 'serialized', { enumerable: true, configurable: true, get: () => (serialized ??= JSON.stringify(assembly.request)) });
  return assembly;
}

/** An operation's result as the worker posts it: an assembly's (op `assemble`) without its body and text. */
export function postedResult(op: OpName, value: unknown): unknown {
  if (op !== 'assemble') return value;
  const r = value as OpResult<'assemble'>;
  return { ...r, assembly: toPosted(r.assembly) };
}

/** An operation's result as the host receives it: an assembly's made whole again (its body and text when read). */
export function receivedResult(op: OpName, value: unknown): unknown {
  if (op === 'assemble') {
    const r = value as OpResult<'assemble'>;
    r.assembly = fromPosted(r.assembly);
  }
  return value;
}
