import { overrideFor, type Overrides } from '../../core/sources/overrides';
import { OVERRIDABLE_KINDS } from '../../view-model/item-actions';

const OVERRIDABLE = new Set(OVERRIDABLE_KINDS);
const NOT_A_FILE = /^(builtin:|session:|pin:)|^task$|^\.context\/session\.jsonl#/;

/**
 * The `contextValue` of an Index or Manifest item, which decides its actions (package.json view/item/context):
 * `ctxItem` (Include, Exclude, Pin, Open, Copy), `ctxItem.included` / `ctxItem.excluded` (the other one and Clear),
 * `ctxFile` for a workspace file the overrides do not apply to (Pin, Open, Copy), none for builtin and session blocks.
 */
export function itemContext(kind: string, source: string, overrides: Overrides | undefined): string | undefined {
  if (NOT_A_FILE.test(source)) return undefined;
  if (!OVERRIDABLE.has(kind)) return 'ctxFile';
  const o = overrideFor(overrides, source.replace(/#.*$/, ''));
  return o === 'include' ? 'ctxItem.included' : o === 'exclude' ? 'ctxItem.excluded' : 'ctxItem';
}
